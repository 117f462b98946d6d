import { spawn, type SpawnOptions } from "node:child_process";

/**
 * Runs a program to its end with no stdin, collecting what it writes: its exit code (null when a
 * signal ended it), stdout and stderr. Rejects only when it cannot be started.
 */
export function runProgram(
  file: string,
  args: readonly string[],
  options: Omit<SpawnOptions, "stdio"> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
