/** The process environment as Marvin reads it: passed down from `cli/`, never read from `process.env` deeper in. */
export type Env = Readonly<Record<string, string | undefined>>;
