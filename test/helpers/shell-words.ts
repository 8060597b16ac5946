// The words of an example command line as a shell would pass them to llmobs.

/** Shell words of the `llmobs ...` part of an example line (quotes removed, pipes and redirects cut). */
export function llmobsWords(line: string): string[] | undefined {
  const words: string[] = [];
  const segments: string[][] = [[]];
  let word = '';
  let quoted = false;
  let redirect = false;
  const end = () => {
    if (word !== '' || quoted) {
      if (redirect) redirect = false;
      else segments.at(-1)!.push(word);
    }
    word = '';
    quoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const close = line.indexOf("'", i + 1);
      word += line.slice(i + 1, close);
      quoted = true;
      i = close;
    } else if (ch === '"') {
      let j = i + 1;
      for (; line[j] !== '"'; j++) word += line[j] === '\\' ? line[++j] : line[j];
      quoted = true;
      i = j;
    } else if (ch === '\\') {
      word += line[++i];
    } else if (ch === ' ') {
      end();
    } else if (ch === '|' || ch === ';' || ch === '&') {
      end();
      if (line[i + 1] === ch) i++;
      segments.push([]);
    } else if (ch === '>' || ch === '<') {
      if (/^\d$/.test(word)) word = '';
      end();
      redirect = true;
    } else {
      word += ch;
    }
  }
  end();
  const segment = segments.find((candidate) => candidate[0] === 'llmobs');
  if (!segment) return undefined;
  words.push(...segment.slice(1));
  return words;
}
