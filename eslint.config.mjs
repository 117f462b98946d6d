import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ["node_modules/**", ".next/**", ".next-*/**", "lib/generated/**", "data/**", "test-results/**", "playwright-report/**", "e2e/artifacts/**", "next-env.d.ts"],
  },
];

export default config;
