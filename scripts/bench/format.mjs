// How the bench scripts print figures: times, byte counts, ratios and tables.

export const ms = (v) => {
  if (v === undefined || Number.isNaN(v)) return '-';
  if (v < 0.1) return `${(v * 1000).toFixed(1)} us`;
  if (v < 1) return `${(v * 1000).toFixed(0)} us`;
  if (v < 100) return `${v.toFixed(2)} ms`;
  return `${v.toFixed(0)} ms`;
};
export const bytes = (v) => {
  if (v === null || v === undefined) return 'n/a';
  if (v < 1024) return `${v} B`;
  if (v < 1024 * 1024) return `${(v / 1024).toFixed(0)} kB`;
  return `${(v / 1024 / 1024).toFixed(1)} MB`;
};
/** A CPU time read at 1 ms resolution (bash `time`). */
export const cpuMs = (v) => (v < 1 ? '<1 ms' : `${v.toFixed(0)} ms`);
/** A ratio to a CPU time read at 1 ms resolution: none below 5 ms, where the rounding is >10%. */
export const cpuRatio = (a, b) => (b < 5 ? '-' : times(a / b));
export const times = (v) => (v === undefined || !Number.isFinite(v) ? '-' : `${v.toFixed(2)}x`);
export const pct = (v) => `${(v * 100).toFixed(0)}%`;
/** `median [q1-q3]` */
export const spread = (s) => `${ms(s.median)} [${ms(s.q1).replace(/ \w+$/, '')}-${ms(s.q3)}]`;

export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(`  ${line(header)}`);
  for (const r of rows) console.log(`  ${line(r)}`);
}
