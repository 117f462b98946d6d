import "server-only";
import { SignInConfigError, resolveOidc, resolveSessionMaxDays } from "@/lib/config";
import { TrustedProxiesError, parseTrustedProxies } from "./client";
import { apiTokenProblem } from "./guard";
import { proxyHeaderProblem } from "./proxy-header";

type Env = Record<string, string | undefined>;

/** What is wrong with the sign-in settings of the environment, one sentence each naming the variable. */
export function authSettingsProblems(env: Env = process.env): string[] {
  const problems: string[] = [];
  const token = apiTokenProblem(env);
  if (token) problems.push(token);
  try {
    parseTrustedProxies(env.WIRESPEED_TRUSTED_PROXIES);
  } catch (error) {
    if (!(error instanceof TrustedProxiesError)) throw error;
    problems.push(error.message);
  }
  const header = proxyHeaderProblem(env);
  if (header) problems.push(header);
  for (const check of [resolveOidc, resolveSessionMaxDays]) {
    try {
      check(env);
    } catch (error) {
      if (!(error instanceof SignInConfigError)) throw error;
      problems.push(error.message);
    }
  }
  return problems;
}

/** At start (instrumentation.ts), before serving: a bad sign-in setting stops the server, saying which. */
export function checkAuthSettings(env: Env = process.env): void {
  const problems = authSettingsProblems(env);
  if (problems.length === 0) return;
  for (const problem of problems) console.error(`[wirespeed] cannot start: ${problem}`);
  process.exit(1);
}
