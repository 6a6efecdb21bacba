/** Top-level names of the working dir that file tools never touch (tickets have their own tools). */
export const FILE_TOOLS_BLOCKED: readonly string[] = [".tickets"];
