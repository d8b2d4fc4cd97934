type Token = string | [string] | [string, string] | [string, string, Record<string, Token[] | number>];

/**
 * A small ICU MessageFormat compiler for the English texts (decision 038): English is the source language,
 * so its texts come with the code (the macros keep them), and only its few placeholders and plurals need
 * compiling. Lingui's own compiler (@lingui/message-utils) weighs 7 KB gzip on the first screen; this
 * handles what the catalogues use — `{name}`, `{n, plural|selectordinal|select, … {…}}` with `#`, and
 * ICU's apostrophe quoting — and a test compares it with Lingui's for every text of the catalogues.
 */
export function compileMessage(message: string): string | Token[] {
  if (!/[{}']/.test(message)) return message;
  const [tokens] = parse(message, 0, false);
  return tokens;
}

function parse(source: string, start: number, inPlural: boolean): [Token[], number] {
  const tokens: Token[] = [];
  let text = "";
  let i = start;
  const flush = () => {
    if (text) tokens.push(text);
    text = "";
  };
  while (i < source.length) {
    const char = source[i]!;
    if (char === "'") {
      const next = source[i + 1];
      if (next === "'") {
        text += "'";
        i += 2;
        continue;
      }
      if (next === "{" || next === "}" || (inPlural && next === "#")) {
        const end = source.indexOf("'", i + 1);
        const stop = end === -1 ? source.length : end;
        text += source.slice(i + 1, stop).replaceAll("''", "'");
        i = stop + 1;
        continue;
      }
      text += char;
      i += 1;
      continue;
    }
    if (char === "}") break;
    if (char === "#" && inPlural) {
      flush();
      tokens.push("#");
      i += 1;
      continue;
    }
    if (char === "{") {
      flush();
      const [argument, after] = parseArgument(source, i + 1);
      tokens.push(argument);
      i = after;
      continue;
    }
    text += char;
    i += 1;
  }
  flush();
  return [tokens, i];
}

function parseArgument(source: string, start: number): [Token, number] {
  const close = source.indexOf("}", start);
  const comma = source.indexOf(",", start);
  if (comma === -1 || comma > close) return [[source.slice(start, close).trim()], close + 1];
  const name = source.slice(start, comma).trim();
  const typeEnd = source.indexOf(",", comma + 1);
  if (typeEnd === -1 || typeEnd > close) return [[name, source.slice(comma + 1, close).trim()], close + 1];
  const type = source.slice(comma + 1, typeEnd).trim();
  const options: Record<string, Token[] | number> = {};
  let i = typeEnd + 1;
  const isPlural = type === "plural" || type === "selectordinal";
  while (i < source.length) {
    while (/\s/.test(source[i]!)) i += 1;
    if (source[i] === "}") return [[name, type, options], i + 1];
    const open = source.indexOf("{", i);
    let key = source.slice(i, open).trim();
    const offset = /^offset:\s*(\d+)\s+/.exec(key);
    if (offset) {
      options.offset = Number(offset[1]);
      key = key.slice(offset[0].length);
    }
    const [tokens, end] = parse(source, open + 1, isPlural);
    options[key.startsWith("=") ? key.slice(1) : key] = tokens;
    i = end + 1;
  }
  return [[name, type, options], i];
}
