/**
 * A stand-in for cmd.exe (no Windows host here), not cmd.exe itself: a model of how a Windows host
 * reads the command line Wirespeed sends over SSH. Win32-OpenSSH runs `cmd.exe /c LINE`, cmd expands
 * %VAR% and acts on & | < > ^ ( ) outside double quotes, then the program splits what is left by the
 * C runtime's rules. Test support only: what it proves holds as far as the model is faithful.
 */
import { expect } from "vitest";
import { cmdQuote } from "@/agents/windows";

// cmd.exe phase 1 on a command line: %name% expands when defined, stays as typed when not.
export function expandPercent(line: string, env: Record<string, string>): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "%") {
      out += line[i++];
      continue;
    }
    const end = line.indexOf("%", i + 1);
    if (end === -1) {
      out += line.slice(i);
      break;
    }
    const name = line.slice(i + 1, end);
    // %cd:~,% is the zero-length substring of a defined variable
    if (/^cd:~,$/i.test(name)) {
      out += "";
      i = end + 1;
    } else if (name !== "" && name in env) {
      out += env[name];
      i = end + 1;
    } else {
      out += "%";
      i += 1;
    }
  }
  return out;
}

// cmd.exe phase 2: characters it would act on outside double quotes.
export function unquotedSpecials(line: string): string[] {
  const found: string[] = [];
  let isQuoted = false;
  for (const ch of line) {
    if (ch === '"') isQuoted = !isQuoted;
    else if (!isQuoted && "&|<>^()".includes(ch)) found.push(ch);
  }
  return found;
}

// The C runtime's argv parser (MSVCRT 2008+ / CommandLineToArgvW rules).
export function crtArgv(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (i >= line.length) break;
    let arg = "";
    let isQuoted = false;
    for (; i < line.length; i++) {
      const ch = line[i]!;
      if (ch === "\\") {
        let n = 0;
        while (line[i] === "\\") {
          n++;
          i++;
        }
        if (line[i] === '"') {
          arg += "\\".repeat(Math.floor(n / 2));
          if (n % 2 === 1) {
            arg += '"';
            continue;
          }
        } else {
          arg += "\\".repeat(n);
        }
        i--;
        continue;
      }
      if (ch === '"') {
        if (isQuoted && line[i + 1] === '"') {
          arg += '"';
          i++;
        } else isQuoted = !isQuoted;
        continue;
      }
      if (!isQuoted && (ch === " " || ch === "\t")) break;
      arg += ch;
    }
    args.push(arg);
  }
  return args;
}

export const ENV = { PATH: "C:\\Windows", USERNAME: "admin", cd: "C:\\Users\\admin" };

// cmd /c: a line that starts with a quote loses its first and last quote before anything else.
export function stripForSlashC(line: string): string {
  if (!line.startsWith('"')) return line;
  const last = line.lastIndexOf('"');
  return line.slice(1, last) + line.slice(last + 1);
}

export function throughCmd(argv: string[]): string[] {
  const line = stripForSlashC(cmdQuote(argv));
  expect(unquotedSpecials(line), line).toEqual([]);
  return crtArgv(expandPercent(line, ENV));
}
