// RFC 4180 CSV (the Sweep tab's export) to one object per row, keyed by the
// header's names: quoted fields may hold commas, doubled quotes and line
// breaks. Shared by scripts/wasm-vs-native-summary.mjs and the Sweep e2e spec
// (types in csv-rows.d.mts).

/** @param {string} text */
export function csvRows(text) {
  const table = [[]];
  const re = /"((?:[^"]|"")*)"|([^,\n]*)/y;
  let i = 0;
  while (i < text.length) {
    re.lastIndex = i;
    const m = re.exec(text);
    table[table.length - 1].push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
    i = re.lastIndex;
    if (text[i] === ',') i++;
    else if (text[i] === '\n') {
      i++;
      if (i < text.length) table.push([]);
    }
  }
  const [names, ...lines] = table;
  return lines.map((l) => Object.fromEntries(l.map((v, k) => [names[k], v])));
}
