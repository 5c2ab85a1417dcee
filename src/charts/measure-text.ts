/**
 * Text widths of DejaVu Sans, the face renderPng draws with, for Vega's layout in Node.
 *
 * Without a canvas Vega estimates every character as 0.8 em wide, so axis titles float far from
 * their labels, legends reserve space they do not use and titles are cut too early. Giving Vega the
 * real advance widths of the face resvg will draw makes the layout match the pixels. The tables
 * are advance widths in font units, read from fonts-dejavu-core 2.37 (DejaVuSans.ttf and
 * DejaVuSans-Bold.ttf); test/charts/measure-text.test.ts checks them against the installed files
 * and prints fresh ones. Kerning is ignored (a pixel or two on a long label).
 */

export interface FontWidthTable {
  unitsPerEm: number;
  /** Runs of consecutive code points from `from`, with their advance widths in font units. */
  ranges: { from: number; widths: number[] }[];
}

/** Advance widths of DejaVu Sans, regular and bold: Basic Latin, Latin-1, Latin Extended-A, common punctuation. */
export const DEJAVU_SANS_METRICS: { regular: FontWidthTable; bold: FontWidthTable } = {
  regular: {
    unitsPerEm: 2048,
    ranges: [
      { from: 0x20, widths: [651, 821, 942, 1716, 1303, 1946, 1597, 563, 799, 799, 1024, 1716, 651, 739, 651, 690, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 690, 690, 1716, 1716, 1716, 1087, 2048, 1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767, 1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403, 799, 690, 799, 1716, 1024, 1024, 1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995, 1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075, 1303, 690, 1303, 1716] },
      { from: 0xa0, widths: [651, 821, 1303, 1303, 1303, 1303, 690, 1024, 1024, 2048, 965, 1253, 1716, 739, 2048, 1024, 1024, 1716, 821, 821, 1024, 1303, 1303, 651, 1024, 821, 965, 1253, 1985, 1985, 1985, 1087, 1401, 1401, 1401, 1401, 1401, 1401, 1995, 1430, 1294, 1294, 1294, 1294, 604, 604, 604, 604, 1587, 1532, 1612, 1612, 1612, 1612, 1612, 1716, 1612, 1499, 1499, 1499, 1499, 1251, 1239, 1290, 1255, 1255, 1255, 1255, 1255, 1255, 2011, 1126, 1260, 1260, 1260, 1260, 569, 569, 569, 569, 1253, 1298, 1253, 1253, 1253, 1253, 1253, 1716, 1253, 1298, 1298, 1298, 1298, 1212, 1300, 1212, 1401, 1255, 1401, 1255, 1401, 1255, 1430, 1126, 1430, 1126, 1430, 1126, 1430, 1126, 1577, 1300, 1587, 1300, 1294, 1260, 1294, 1260, 1294, 1260, 1294, 1260, 1294, 1260, 1587, 1300, 1587, 1300, 1587, 1300, 1587, 1300, 1540, 1298, 1876, 1423, 604, 569, 604, 569, 604, 569, 604, 569, 604, 569, 1208, 1138, 604, 569, 1343, 1186, 1186, 1141, 569, 1141, 569, 1141, 768, 1141, 700, 1151, 582, 1532, 1298, 1532, 1298, 1532, 1298, 1666, 1532, 1298, 1612, 1253, 1612, 1253, 1612, 1253, 2191, 2095, 1423, 842, 1423, 842, 1423, 842, 1300, 1067, 1300, 1067, 1300, 1067, 1300, 1067, 1251, 803, 1251, 803, 1251, 803, 1499, 1298, 1499, 1298, 1499, 1298, 1499, 1298, 1499, 1298, 1499, 1298, 2025, 1675, 1251, 1212, 1251, 1403, 1075, 1403, 1075, 1403, 1075, 721] },
      { from: 0x2010, widths: [739, 739, 1303, 1024, 2048, 2048, 1024, 1024, 651, 651, 651, 651, 1061, 1061, 1061, 1061, 1024, 1024, 1208, 1208, 685, 1367, 2048, 651] },
      { from: 0x20ac, widths: [1303] },
      { from: 0x2122, widths: [2048] },
    ],
  },
  bold: {
    unitsPerEm: 2048,
    ranges: [
      { from: 0x20, widths: [713, 934, 1067, 1716, 1425, 2052, 1786, 627, 936, 936, 1071, 1716, 778, 850, 778, 748, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 1425, 819, 819, 1716, 1716, 1716, 1188, 2048, 1585, 1561, 1503, 1700, 1399, 1399, 1681, 1714, 762, 762, 1587, 1305, 2038, 1714, 1741, 1501, 1741, 1577, 1475, 1397, 1663, 1585, 2259, 1579, 1483, 1485, 936, 748, 936, 1716, 1024, 1024, 1382, 1466, 1214, 1466, 1389, 891, 1466, 1458, 702, 702, 1362, 702, 2134, 1458, 1407, 1466, 1466, 1010, 1219, 979, 1458, 1335, 1892, 1321, 1335, 1192, 1458, 748, 1458, 1716] },
      { from: 0xa0, widths: [713, 934, 1425, 1425, 1303, 1425, 748, 1024, 1024, 2048, 1155, 1323, 1716, 850, 2048, 1024, 1024, 1716, 897, 897, 1024, 1507, 1303, 778, 1024, 897, 1155, 1323, 2120, 2120, 2120, 1188, 1585, 1585, 1585, 1585, 1585, 1585, 2222, 1503, 1399, 1399, 1399, 1399, 762, 762, 762, 762, 1716, 1714, 1741, 1741, 1741, 1741, 1741, 1716, 1741, 1663, 1663, 1663, 1663, 1483, 1511, 1473, 1382, 1382, 1382, 1382, 1382, 1382, 2146, 1214, 1389, 1389, 1389, 1389, 702, 702, 702, 702, 1407, 1458, 1407, 1407, 1407, 1407, 1407, 1716, 1407, 1458, 1458, 1458, 1458, 1335, 1466, 1335, 1585, 1382, 1585, 1382, 1585, 1382, 1503, 1214, 1503, 1214, 1503, 1214, 1503, 1214, 1700, 1466, 1716, 1466, 1399, 1389, 1399, 1389, 1399, 1389, 1399, 1389, 1399, 1389, 1681, 1466, 1681, 1466, 1681, 1466, 1681, 1466, 1714, 1458, 1994, 1618, 762, 702, 762, 702, 762, 702, 762, 702, 762, 702, 1524, 1404, 762, 702, 1587, 1362, 1362, 1305, 702, 1305, 702, 1305, 982, 1305, 1140, 1315, 760, 1714, 1458, 1714, 1458, 1714, 1458, 2013, 1714, 1458, 1741, 1407, 1741, 1407, 1741, 1407, 2390, 2241, 1577, 1010, 1577, 1010, 1577, 1010, 1475, 1219, 1475, 1219, 1475, 1219, 1475, 1219, 1397, 979, 1397, 979, 1397, 979, 1663, 1458, 1663, 1458, 1663, 1458, 1663, 1458, 1663, 1458, 1663, 1458, 2259, 1892, 1483, 1335, 1483, 1485, 1192, 1485, 1192, 1485, 1192, 891] },
      { from: 0x2010, widths: [850, 850, 1425, 1024, 2048, 2048, 1024, 1024, 778, 778, 778, 778, 1346, 1346, 1346, 1346, 1024, 1024, 1309, 1309, 682, 1366, 2048, 713] },
      { from: 0x20ac, widths: [1425] },
      { from: 0x2122, widths: [2048] },
    ],
  },
};

interface WidthLookup {
  unitsPerEm: number;
  widths: Map<number, number>;
  /** Fallback for code points outside the table: the mean width of a–z. */
  average: number;
}

function toLookup(table: FontWidthTable): WidthLookup {
  const widths = new Map<number, number>();
  for (const { from, widths: run } of table.ranges) run.forEach((w, i) => w > 0 && widths.set(from + i, w));
  let sum = 0;
  for (let cp = 0x61; cp <= 0x7a; cp++) sum += widths.get(cp) ?? 0;
  return { unitsPerEm: table.unitsPerEm, widths, average: sum / 26 };
}

const REGULAR = toLookup(DEJAVU_SANS_METRICS.regular);
const BOLD = toLookup(DEJAVU_SANS_METRICS.bold);

/**
 * Width in pixels of `text` set in DejaVu Sans at `fontSize` pixels. CJK and other wide scripts
 * (from U+2E80) count one em per character; other characters outside the tables count as an
 * average Latin letter.
 *
 * @example
 * measureText('Esteem', 12, false) // about 43
 */
export function measureText(text: string, fontSize: number, bold: boolean): number {
  const font = bold ? BOLD : REGULAR;
  let units = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    units += font.widths.get(cp) ?? (cp >= 0x2e80 ? font.unitsPerEm : font.average);
  }
  return (units * fontSize) / font.unitsPerEm;
}
