// Narrowing a bench run by name: BENCH_FAMILIES and BENCH_PEER_ROWS hold comma-separated parts of
// the names to run (case ignored); unset or empty runs them all.

/** The parts of a comma-separated filter variable, in lower case; none when it is unset or empty. */
export function filterParts(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
}

/** Whether `name` is run under these parts: it contains one of them, or there are none. */
export function isSelected(parts: readonly string[], name: string): boolean {
  return parts.length === 0 || parts.some((part) => name.toLowerCase().includes(part));
}
