// An observation's input or output: chat messages as messages, text as text, the rest as
// folded JSON, with a switch to the raw JSON.
import { useState } from 'preact/hooks';
import { JsonView } from './json-view.js';

interface Message {
  role: string;
  content: unknown;
  [key: string]: unknown;
}

function asMessages(value: unknown): Message[] | undefined {
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null && Array.isArray((value as { messages?: unknown }).messages) ? (value as { messages: unknown[] }).messages : undefined;
  if (!list || list.length === 0) return undefined;
  return list.every((m) => typeof m === 'object' && m !== null && typeof (m as { role?: unknown }).role === 'string') ? (list as Message[]) : undefined;
}

function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every((part) => typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string')) {
    return content.map((part) => (part as { text: string }).text).join('\n');
  }
  return undefined;
}

/** Input and output often arrive as JSON in a string (OpenTelemetry attributes are strings). */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

export function IoView({ title, value: given }: { title: string; value: unknown }) {
  const [raw, setRaw] = useState(false);
  const value = parsed(given);
  if (value === null || value === undefined) return null;
  const messages = asMessages(value);
  return (
    <section class="io" aria-label={title}>
      <div class="io-head">
        <h4>{title}</h4>
        <label class="toggle">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw((e.target as HTMLInputElement).checked)} /> JSON
        </label>
      </div>
      {raw ? <JsonView value={value} /> : messages ? <Messages messages={messages} /> : typeof value === 'string' ? <pre class="text">{value}</pre> : <JsonView value={value} />}
    </section>
  );
}

function Messages({ messages }: { messages: Message[] }) {
  return (
    <ol class="messages">
      {messages.map((message) => {
        const text = textOf(message.content);
        const { role, content, ...rest } = message;
        return (
          <li class={`message message-${role}`}>
            <div class="role">{role}</div>
            {text !== undefined ? <pre class="text">{text}</pre> : content !== undefined && content !== null ? <JsonView value={content} /> : null}
            {Object.keys(rest).length > 0 ? <JsonView value={rest} /> : null}
          </li>
        );
      })}
    </ol>
  );
}
