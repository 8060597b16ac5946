// Control characters in text that came from elsewhere (names, server messages, input lines)
// must not reach a terminal raw: ESC, BEL, C1 and friends change titles, clear the screen,
// move the cursor, or make a hyperlink say something else than it is.

// C0 controls but tab and line feed, DEL, and C1 controls.
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// Also tab and line feed: inside one table cell or name they would break the layout.
// eslint-disable-next-line no-control-regex
const ALL_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// The colour sequences our own styling writes (chalk's bold, dim, red, green, yellow, cyan and
// their closing codes). Only these are kept: any other SGR sequence came from elsewhere, and
// some hide text (8: concealed, 30/40: black, 7: inverse), blink, or restyle the rest of the
// terminal. Which of the kept ones are ours cannot be told, but they only colour text.
// eslint-disable-next-line no-control-regex
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39)m/y;

const visible = (c: string): string => {
  switch (c) {
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\u001b':
      return '\\e';
    default:
      return `\\x${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  }
};

/**
 * A value shown on one line (a name, a table cell): every control character made visible;
 * `keepLines` keeps line feeds and tabs (a quoted CSV field may hold them).
 */
export function escapeValue(text: string, keepLines = false): string {
  const pattern = keepLines ? CONTROLS : ALL_CONTROLS;
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, visible) : text;
}

/**
 * Text for a terminal: control characters made visible, except line feeds, tabs and (with
 * `keepColours`, when the output is styled) the colour sequences of our own styling. Unstyled
 * output has no sequence of its own, so there every one is made visible.
 */
export function escapeText(text: string, keepColours = true): string {
  return escapeKeepingColours(text, CONTROLS, keepColours);
}

/**
 * A styled value shown on one line (the value of a label/value pair): every control character
 * made visible, tabs and line feeds included, except the colour sequences of our own styling.
 */
export function escapeStyledValue(text: string, keepColours = true): string {
  return escapeKeepingColours(text, ALL_CONTROLS, keepColours);
}

function escapeKeepingColours(text: string, pattern: RegExp, keepColours: boolean): string {
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  let out = '';
  let last = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    const at = m.index;
    if (m[0] === '\u001b' && keepColours) {
      OWN_SGR.lastIndex = at;
      const sgr = OWN_SGR.exec(text);
      if (sgr) {
        pattern.lastIndex = at + sgr[0].length;
        continue;
      }
    }
    out += text.slice(last, at) + visible(m[0]);
    last = at + 1;
  }
  return out + text.slice(last);
}

/** JSON text with DEL and C1 controls escaped too (JSON.stringify leaves them raw); still valid JSON. */
export function escapeJson(text: string): string {
  return text.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
