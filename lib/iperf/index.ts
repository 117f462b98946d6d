// lib/iperf: pure code, no I/O. Options → argv for a given iperf3 version, parsers for every
// output iperf3 produces, unit math. See lib/iperf/README.md.
export { IperfOptionsSchema, IPERF_LIMITS, isSafeAddress, isSafeHost } from "./options";
export type { IperfOptions, IperfOptionsInput } from "./options";
export { parseIperfVersion, compareVersions, isVersionAtLeast, versionFromString } from "./version";
export type { IperfVersion } from "./version";
export {
  buildClientArgv,
  buildServerArgv,
  chooseLiveMode,
  chooseServerOutput,
  IperfOptionError,
  FLAG_SINCE,
} from "./argv";
export type { BuildClientArgvInput, BuildServerArgvInput, IperfFlag, IperfLiveMode, IperfServerOutput } from "./argv";
export { createIperfParser, parseIperfOutput } from "./parser";
export type { IperfParser, IperfParserOptions } from "./parser";
export { createServerOutputSplitter } from "./server-output";
export type { ServerOutputSplitter, SplitLine } from "./server-output";
export { classifyIperfError, isErrorLine, isNoiseLine } from "./errors";
export type { IperfPlatform } from "./errors";
export {
  IperfResultSchema,
  IperfIntervalSchema,
  IperfStreamSampleSchema,
  IperfSummarySchema,
  IperfSideSummarySchema,
  IperfErrorSchema,
  IperfErrorKindSchema,
  IperfFlowSchema,
  IperfCpuSchema,
} from "./model";
export type {
  IperfResult,
  IperfInterval,
  IperfStreamSample,
  IperfSummary,
  IperfSideSummary,
  IperfError,
  IperfErrorKind,
  IperfEvent,
  IperfFlow,
  IperfFormat,
  IperfRole,
  IperfProtocol,
  IperfDirection,
  IperfStartInfo,
  IperfCpu,
} from "./model";
export {
  parseBytes,
  parseRate,
  formatBytes,
  formatRate,
  printedUncertainty,
  bytesUnitFactor,
  rateUnitFactor,
  lossPercent,
} from "./units";
