// Summary statistics the benchmark scripts share.

/**
 * The median of a list of numbers (the mean of the two middle values for an even count).
 *
 * @param {readonly number[]} xs
 * @returns {number}
 */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
