// A command line as the run page draws it: cut where it may wrap, so that a phone's narrow
// Commands block breaks it between arguments and never inside one (a port number, an address).
// Pure: the browser loads it.

/** A piece of a command line: an argument (an option with its value kept together), or the spaces between two. */
export type CommandPart = { text: string; isSpace: boolean };

/** An option that may take a value: "-p", "--bind"; not "-1" (a flag) nor "--logfile=x" (its value in it). */
const OPTION = /^--?[A-Za-z][\w-]*$/;

/** The words of `line` as a shell reads them (quotes keep their spaces), with the spaces between; joined, they are `line`. */
function splitWords(line: string): CommandPart[] {
  const parts: CommandPart[] = [];
  let quote: "'" | '"' | null = null;
  let current = "";
  let isSpace = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index]!;
    const isBlank = quote === null && /\s/.test(char);
    if (current !== "" && isBlank !== isSpace) {
      parts.push({ text: current, isSpace });
      current = "";
    }
    isSpace = isBlank;
    current += char;
    if (quote === null && (char === "'" || char === '"')) quote = char;
    else if (char === quote) quote = null;
    else if (char === "\\" && quote !== "'" && index + 1 < line.length) current += line[++index];
  }
  if (current !== "") parts.push({ text: current, isSpace });
  return parts;
}

/**
 * `line` in parts, each argument one part and each run of spaces one: an option and the value
 * after it ("-p 5201", "-B 198.18.0.2") are one part, spaces and all, so they stay on one line.
 */
export function commandParts(line: string): CommandPart[] {
  const words = splitWords(line);
  const parts: CommandPart[] = [];
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    const space = words[index + 1];
    const value = words[index + 2];
    if (!word.isSpace && OPTION.test(word.text) && space && value && !value.text.startsWith("-")) {
      parts.push({ text: word.text + space.text + value.text, isSpace: false });
      index += 2;
    } else {
      parts.push(word);
    }
  }
  return parts;
}
