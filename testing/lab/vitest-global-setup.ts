/**
 * globalSetup of the vitest project `lab`: builds the lab before the first
 * *.lab.test.ts and tears it down after the last. Missing prerequisites fail the
 * run with the list: a lab test that silently skips proves nothing.
 */
import type { LabState } from "../lab-state";
import { labDown, labUp } from "./lab";

export function describeLab(state: LabState): string {
  const links = state.links.map((l) => `${l.name} ${l.rateMbps === null ? "unshaped" : `${l.rateMbps} Mb/s`}`);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  return `lab up: ${plural(state.hosts.length, "host")}, ${plural(state.links.length, "link")} (${links.join(", ")})`;
}

export async function setup(): Promise<void> {
  // labUp checks prerequisites first and throws one Error listing every missing one.
  const state = await labUp(process.env.WIRESPEED_LAB_TOPOLOGY);
  console.log(describeLab(state));
}

export async function teardown(): Promise<void> {
  // WIRESPEED_LAB_KEEP=1 leaves the lab up to poke at after a failure (`npm run lab -- down` later).
  if (process.env.WIRESPEED_LAB_KEEP === "1") {
    console.log("lab kept up (WIRESPEED_LAB_KEEP=1); tear it down with: npm run lab -- down");
    return;
  }
  labDown();
}
