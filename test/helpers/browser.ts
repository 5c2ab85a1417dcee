/**
 * A headless Chromium (Debian's, driven by playwright-core, which downloads nothing) for checking
 * what a page shows: every chart drawn, nothing fetched from elsewhere.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM } from './independent-reader.js';

/** The browser's own, inside `$$eval` callbacks (the tests compile without the DOM library). */
declare const getComputedStyle: (element: unknown) => { fontSize: string; paddingLeft: string; paddingRight: string };

/** Chromium as this machine runs it: no sandbox as root, no background networking. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export interface PageCheck {
  /** Requests the page made to anything but its own file. */
  external: string[];
  /**
   * Per figure: its drawn size, how many marks it holds, how many of them are data marks (with a
   * role for screen readers) and how many have a hover title, the smallest drawn text in CSS pixels,
   * and the width of the content column it sits in.
   */
  figures: { width: number; height: number; marks: number; dataMarks: number; titles: number; minFontPx: number; columnWidth: number; titleTexts: string[] }[];
  /** Words in place of a chart that had nothing to draw. */
  noCharts: string[];
  /** Errors printed to the console. */
  errors: string[];
  title: string;
  /** The page's visible text. */
  text: string;
  /** Every aria-label (what screen readers are given for chart marks). */
  ariaLabels: string[];
}

/** Opens a local HTML file and reports what it drew, and anything it tried to fetch. */
export async function checkPage(browser: Browser, file: string, screenshot?: string): Promise<PageCheck> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const external: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('file://')) external.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`file://${file}`);
  const figures = await page.$$eval('figure svg', (svgs) =>
    svgs.map((svg) => {
      const box = svg.getBoundingClientRect();
      const scale = box.width / (Number(svg.getAttribute('width')) || box.width);
      const sizes = [...svg.querySelectorAll('text')].filter((t) => (t.textContent ?? '').trim() !== '').map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
      const column = svg.closest('main')!;
      const style = getComputedStyle(column);
      return {
        width: box.width,
        height: box.height,
        marks: svg.querySelectorAll('path, rect, line, circle, text').length,
        // Data marks: what Vega gives a screen-reader role, less the guides (axes, legends, titles).
        dataMarks: [...svg.querySelectorAll('[role="graphics-symbol"]')].filter((n) => !/^(axis|legend|title|subtitle)$|container$/.test(n.getAttribute('aria-roledescription') ?? '')).length,
        titles: svg.querySelectorAll('[role="graphics-symbol"] > title').length,
        minFontPx: sizes.length === 0 ? 0 : Math.min(...sizes),
        columnWidth: column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        titleTexts: [...svg.querySelectorAll('title')].slice(0, 50).map((t) => t.textContent ?? ''),
      };
    }),
  );
  const noCharts = await page.$$eval('.no-chart', (nodes) => nodes.map((n) => n.textContent ?? ''));
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  const title = await page.title();
  const text = await page.innerText('body');
  const ariaLabels = await page.$$eval('[aria-label]', (nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? ''));
  await page.close();
  return { external, figures, noCharts, errors, title, text, ariaLabels };
}
