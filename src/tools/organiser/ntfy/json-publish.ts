import { singleLine, withoutControlCharacters } from "../../../shared/control-characters.js";

export interface NtfyNote {
  message: string;
  title?: string;
  tags?: readonly string[];
  /** ntfy's 1 (min) to 5 (max); 3 is its default. */
  priority?: number;
}

/**
 * The body of ntfy's JSON publishing (a POST to the server's root): topic, title and tags travel
 * in JSON, never in headers that a line break in a title could add to (Click:, Email:, Actions:).
 * The title is made one line and the message loses every control character but line breaks.
 */
export function publishBody(topic: string, note: NtfyNote) {
  const title = note.title ? singleLine(note.title) : "";
  return {
    topic,
    message: withoutControlCharacters(note.message),
    ...(title ? { title } : {}),
    ...(note.tags?.length ? { tags: [...note.tags] } : {}),
    ...(note.priority === undefined ? {} : { priority: note.priority }),
  };
}
