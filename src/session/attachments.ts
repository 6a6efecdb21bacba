import type { Message } from "../providers/types.js";
import type { ImageData } from "../shared/image.js";

/** What goes with a user's words to the model: the files they mention, the images they attach. */
export interface MessageAttachments {
  /** `<file>` blocks after the words, in what the model reads. */
  text?: string;
  images?: readonly ImageData[];
  /** Called when the message goes to the conversation, not when it is refused (images to a model without vision). */
  accepted?: () => void;
}

/** The user message as the conversation keeps it: mentioned files after the words, images with them. */
export function userMessage(text: string, attachments: MessageAttachments, context: string): Message {
  const content = attachments.text ? `${text}\n\n${attachments.text}` : text;
  const images = attachments.images?.length ? { images: [...attachments.images] } : {};
  return { role: "user", content, context, ...images };
}

/** Said instead of sending images to a model that cannot read them; nothing is sent. */
export function imageRefusal(model: string): string {
  return (
    `${model} cannot read images, so nothing was sent. Switch with /model to one that does (e.g. /model openai ` +
    `gpt-4o, /model anthropic, /model gemini) and send it again (↑ brings it back); MARVIN_VISION=on says a model ` +
    `the name does not tell reads images.`
  );
}
