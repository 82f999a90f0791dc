// Returns a minus b.
export function sub(a, b) {
  return 0;
}
