// Form text to the values the inventory takes. Pure: the server's schemas judge the result.

/** "22" → 22; anything else goes as typed, so the server's message names what is allowed. */
export function wholeNumberOrText(text: string): number | string {
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : text;
}
