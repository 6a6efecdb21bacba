/**
 * Marvin's own crontab lines end in a tag, ` # marvin:<kind>:<id>` (a shell comment, so cron
 * ignores it). Only lines with such a tag are ever read or changed; every other line of the
 * user's crontab is kept byte for byte.
 */
export type CronKind = "alarm" | "reminder";

/** Ids are one safe word: they end up in file names and in the self-removing scripts' grep patterns. */
export const CRON_ID = /^[A-Za-z0-9_-]{1,64}$/;

interface TaggedLine {
  kind: CronKind;
  id: string;
  line: string;
}

const TAG = / # marvin:(alarm|reminder):([A-Za-z0-9_-]+)\r?$/;

export function cronTag(kind: CronKind, id: string): string {
  return ` # marvin:${kind}:${id}`;
}

function tagOf(line: string): { kind: CronKind; id: string } | undefined {
  const match = TAG.exec(line);
  return match ? { kind: match[1] as CronKind, id: match[2]! } : undefined;
}

/** Marvin's lines of one kind, in crontab order. */
export function taggedLines(table: string, kind: CronKind): TaggedLine[] {
  return table.split("\n").flatMap((line) => {
    const tag = tagOf(line);
    return tag?.kind === kind ? [{ ...tag, line }] : [];
  });
}

/** `table` without Marvin's lines of `kind` whose id `drop` accepts; every other byte unchanged. */
export function withoutTagged(table: string, kind: CronKind, drop: (id: string) => boolean): string {
  const lines = table.split("\n");
  const kept = lines.filter((line) => {
    const tag = tagOf(line);
    return !(tag?.kind === kind && drop(tag.id));
  });
  return kept.join("\n");
}

/** `table` with `lines` appended, each ending in a newline as crontab requires. */
export function withAppended(table: string, lines: readonly string[]): string {
  if (lines.length === 0) return table;
  const head = table === "" || table.endsWith("\n") ? table : `${table}\n`;
  return `${head}${lines.map((line) => `${line}\n`).join("")}`;
}
