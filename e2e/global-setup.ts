import { labDown, labUp } from "../testing/lab/lab";

// The browser tests add the lab's hosts through the pages and run real tests on its
// links, so the lab is up for the whole Playwright run. Missing prerequisites fail it.
export default async function globalSetup(): Promise<() => void> {
  const state = await labUp(process.env.WIRESPEED_LAB_TOPOLOGY);
  console.log(`lab up for the browser tests: ${state.hosts.map((h) => h.name).join(", ")}`);
  return () => {
    if (process.env.WIRESPEED_LAB_KEEP !== "1") labDown();
  };
}
