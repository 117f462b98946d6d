// Form text to the values the inventory takes, and a host's values as the pages write them. Pure: the
// server's schemas judge what a form sends.

/** "22" → 22; anything else goes as typed, so the server's message names what is allowed. */
export function wholeNumberOrText(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}

/** Where Wirespeed reaches a host, as the host lists write it: "local", or user@address:port. */
export function sshTarget(host: { isLocal: boolean; username: string; address: string; port: number }): string {
  return host.isLocal ? "local" : `${host.username}@${host.address}:${host.port}`;
}
