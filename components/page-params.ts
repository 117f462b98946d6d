// What the pages read from their URL, before anything reaches the database.

/** A page's `[id]`: a plain decimal id of 1 to 2^31 − 1, or null (the page is then not found). */
export function pageIdOf(raw: string): number | null {
  return /^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}
