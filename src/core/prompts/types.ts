/** The two prompt shapes Langfuse stores; every version of one prompt keeps the same type. */
export type PromptType = 'text' | 'chat';

/** A chat message as the server stores and returns it. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** A slot that `compile()` fills with a list of messages supplied at run time. */
export interface PlaceholderMessage {
  type: 'placeholder';
  name: string;
}

export type ChatItem = ChatMessage | PlaceholderMessage;

/** Validated content, tagged with its type so text and chat cannot be mixed up downstream. */
export type PromptContent =
  | { type: 'text'; prompt: string }
  | { type: 'chat'; prompt: ChatItem[] };

/** One version of a prompt and the labels it carries, as listed by the API. */
export interface VersionLabels {
  version: number;
  labels: readonly string[];
}

export function isPlaceholder(item: ChatItem): item is PlaceholderMessage {
  return 'type' in item && item.type === 'placeholder';
}
