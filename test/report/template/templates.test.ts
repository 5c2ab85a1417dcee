/**
 * Templates: parsing, checking and parameters. Every kind of mistake is a usage error (exit 2) that
 * names the path in the template and the fix, and writes nothing.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { UsageError } from '../../../src/errors.js';
import { listTemplates, loadTemplate } from '../../../src/report/template/load-template.js';
import { defineTemplate, fillDataTokens, fromParameterPairs, fromTemplateText, resolveTemplate } from '../../../src/report/template/resolve-template.js';
import { TemplateError } from '../../../src/report/template/template-error.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bsk-templates-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

// No service at all: a bad template must fail before anything is started or fetched.
const cli = (argv: string[]) => runCli(argv, { BRANDSCAPE_BASE_URL: 'http://127.0.0.1:9' }, dir);

const GOOD = `
title: Pillars in {markets}
parameters:
  markets: { type: markets, default: [GB, DE] }
  year: { type: year, default: latest }
  brands: { type: brands, default: [Veros, 23] }
data:
  markets: $markets
  years: [$year, 2023]
  brands: $brands
  metric_groups: [pillars]
sections:
  - kind: cross-market
    chart: heatmap
  - kind: cross-year
    years: [2023, $year]
`;

describe('a good template', () => {
  it('parses, checks and resolves with its defaults', () => {
    const t = fromTemplateText(GOOD, { name: 'good' });
    const r = resolveTemplate(t);
    expect(r.data).toMatchObject({ markets: ['GB', 'DE'], years: ['latest', 2023], brands: ['Veros', 23], metric_groups: ['pillars'] });
    expect(r.sections[1]).toMatchObject({ kind: 'cross-year', years: [2023, 'latest'] });
    expect(r.output).toEqual({ name: '{template}-{date}', formats: ['xlsx', 'html'] });
    expect(r.parameters.map((p) => [p.name, p.given])).toEqual([
      ['markets', false],
      ['year', false],
      ['brands', false],
    ]);
  });

  it('takes -p values typed by the parameter: lists, ranges, ids, case', () => {
    const t = defineTemplate({
      title: 'x',
      parameters: {
        markets: { type: 'markets', default: ['GB'] },
        years: { type: 'years', default: [2024] },
        brands: { type: 'brands', default: [1] },
        flag: { type: 'boolean', default: false },
        n: { type: 'integer', default: 1 },
      },
      data: { markets: '$markets', years: '$years', brands: '$brands' },
      sections: [{ kind: 'cross-year' }],
    });
    const r = resolveTemplate(t, fromParameterPairs(['markets=gb, de ,fr', 'years=2019..2022,latest', 'brands=Veros,305', 'flag=yes', 'n=3']));
    expect(r.data.markets).toEqual(['GB', 'DE', 'FR']);
    expect(r.data.years).toEqual([2019, 2020, 2021, 2022, 'latest']);
    expect(r.data.brands).toEqual(['Veros', 305]);
    expect(r.parameters.find((p) => p.name === 'flag')).toMatchObject({ value: true, given: true });
    expect(r.parameters.find((p) => p.name === 'n')?.value).toBe(3);
    expect(resolveTemplate(t, { years: 'latest-2..latest' }).data.years).toEqual(['latest-2', 'latest-1', 'latest']);
  });

  it('fills {tokens}: parameters at once, years and market names once the data tells them', () => {
    const t = fromTemplateText(GOOD.replace('title: Pillars in {markets}', 'title: Pillars in {markets}, {year}'), { name: 'good' });
    const r = resolveTemplate(t);
    expect(r.title).toBe('Pillars in {markets}, {year}');
    const names = new Map([['GB', 'United Kingdom'], ['DE', 'Germany']]);
    expect(fillDataTokens(r.title, r.parameters, { latest: 2025, marketName: (c) => names.get(c) ?? c })).toBe('Pillars in United Kingdom and Germany, 2025');
    expect(fillDataTokens(r.title, resolveTemplate(t, { year: '2022' }).parameters, { latest: 2025 })).toBe('Pillars in GB and DE, 2022');
  });

  it('ships five templates that check', async () => {
    const names = (await listTemplates({ cwd: dir })).map((t) => t.name);
    expect(names).toEqual(['company-portfolio', 'competitive-archetypes', 'cross-market-brand-health', 'cross-year-trends', 'sector-review']);
    for (const name of names) expect((await loadTemplate(name, { cwd: dir })).name).toBe(name);
  });

  it('finds a project template by name before a bundled one', async () => {
    await rm(join(dir, 'templates'), { recursive: true, force: true });
    await (await import('node:fs/promises')).mkdir(join(dir, 'templates'));
    await writeFile(join(dir, 'templates', 'sector-review.yaml'), GOOD);
    const entries = await listTemplates({ cwd: dir });
    expect(entries.find((e) => e.name === 'sector-review')?.origin).toBe('project');
    expect((await loadTemplate('sector-review', { cwd: dir })).title).toBe('Pillars in {markets}');
    await rm(join(dir, 'templates'), { recursive: true, force: true });
  });
});

/** A template with one mistake, and the problem it must report: path and words of the message. */
const BAD: { name: string; text: string; path: string; says: RegExp }[] = [
  { name: 'not YAML', text: 'title: [unclosed\nsections: -', path: 'line', says: /not valid YAML/ },
  { name: 'not an object', text: '- a\n- b\n', path: '', says: /expected a template \(an object with title, data and sections\), got a list/ },
  { name: 'no title', text: GOOD.replace('title: Pillars in {markets}\n', ''), path: 'title', says: /expected a title/ },
  { name: 'unknown top-level key', text: `${GOOD}\nsectionz: []\n`, path: '', says: /unknown key 'sectionz'; allowed: title, description, parameters, data, sections, output/ },
  { name: 'no sections', text: GOOD.replace(/sections:[\s\S]*$/, 'sections: []\n'), path: 'sections', says: /at least one section/ },
  { name: 'unknown section kind', text: GOOD.replace('kind: cross-market', 'kind: pie-chart'), path: 'sections[0].kind', says: /unknown section kind 'pie-chart'; choose one of cross-market, cross-year, sector-summary/ },
  { name: 'unknown chart', text: GOOD.replace('chart: heatmap', 'chart: pie'), path: 'sections[0].chart', says: /unknown chart 'pie'; choose one of heatmap, bars, none/ },
  { name: 'unknown section key', text: GOOD.replace('chart: heatmap', 'metricz: [esteem]'), path: 'sections[0]', says: /unknown key 'metricz'; allowed: kind, title, description, metrics/ },
  { name: 'bad market code', text: GOOD.replace('default: [GB, DE]', 'default: [GB, GBR]'), path: 'parameters.markets.default[1]', says: /'GBR' is not a market code; use the two-letter ISO code/ },
  { name: 'bad year', text: GOOD.replace('years: [$year, 2023]', 'years: [$year, next]'), path: 'data.years[1]', says: /expected a year such as 2024, 'latest' or 'latest-1', got 'next'/ },
  { name: 'unknown parameter reference', text: GOOD.replace('markets: $markets', 'markets: $market'), path: 'data.markets', says: /unknown parameter '\$market'; parameters: markets, year, brands/ },
  { name: 'default of the wrong type', text: GOOD.replace('default: latest', 'default: soon'), path: 'parameters.year.default', says: /expected a year/ },
  { name: 'unknown parameter type', text: GOOD.replace('type: year,', 'type: date,'), path: 'parameters.year.type', says: /unknown parameter type 'date'; choose one of string, strings, integer/ },
  { name: 'parameter without default', text: GOOD.replace('{ type: year, default: latest }', '{ type: year }'), path: 'parameters.year.default', says: /missing; every parameter needs a default of type year/ },
  { name: 'unknown title token', text: GOOD.replace('Pillars in {markets}', 'Pillars in {region}'), path: 'title', says: /unknown token \{region\}; tokens: \{markets\}, \{year\}, \{brands\}/ },
  { name: 'unknown score type', text: GOOD.replace('chart: heatmap', 'score_type: percentile'), path: 'sections[0].score_type', says: /unknown score type 'percentile'; choose one of rank, pct, c/ },
  { name: 'bars for several brands', text: GOOD.replace('chart: heatmap', 'chart: bars'), path: 'sections[0].chart', says: /bars show one brand across markets, and the section has 2 brands/ },
  { name: 'archetypes without a set', text: GOOD.replace('kind: cross-market\n    chart: heatmap', 'kind: archetypes'), path: 'sections[0].comparison', says: /competitive archetypes need a set/ },
  { name: 'unknown output format', text: `${GOOD}output:\n  formats: [pdf]\n`, path: 'output.formats[0]', says: /unknown output format 'pdf'; choose one of xlsx, html/ },
  { name: 'no markets', text: GOOD.replace('  markets: $markets\n  years', '  years'), path: 'data.markets', says: /missing|expected a list of market codes/ },
  { name: 'a parameter of the wrong type where it is used', text: GOOD.replace('years: [$year, 2023]', 'years: $markets'), path: 'data.years[0]', says: /expected a year .*\(from parameter 'markets'\)/ },
  { name: 'a company section without companies', text: GOOD.replace('kind: cross-market\n    chart: heatmap', 'kind: company-rollup'), path: 'sections[0].companies', says: /needs companies/ },
];

describe('a bad template', () => {
  it.each(BAD)('$name: a TemplateError naming $path', ({ text, path, says }) => {
    let error: unknown;
    try {
      fromTemplateText(text, { name: 'bad' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect(error).toBeInstanceOf(UsageError);
    const problems = (error as TemplateError).problems;
    const problem = problems.find((p) => p.path.startsWith(path) && says.test(p.message));
    expect(problem, `problems: ${JSON.stringify(problems)}`).toBeDefined();
  });

  it('exits 2 from the CLI, naming the path, and writes nothing', async () => {
    for (const [i, bad] of BAD.entries()) {
      const file = join(dir, `bad-${i}.yaml`);
      await writeFile(file, bad.text);
      const validate = await cli(['templates', 'validate', file]);
      expect(validate.code, bad.name).toBe(2);
      expect(validate.stderr, bad.name).toContain(bad.path.startsWith('line') ? 'line' : bad.path);
      const out = join(dir, `out-${i}`);
      await (await import('node:fs/promises')).mkdir(out);
      const report = await cli(['report', file, '--out', out]);
      expect(report.code, bad.name).toBe(2);
      expect(report.stderr).not.toMatch(/in-process emulator|ECONNREFUSED/);
      expect(await readdir(out), bad.name).toEqual([]);
    }
  });

  it('refuses unknown and ill-typed -p values, naming them', async () => {
    const t = fromTemplateText(GOOD, { name: 'good' });
    expect(() => resolveTemplate(t, { region: 'EU' })).toThrow(/-p region: unknown parameter; parameters of good: markets, year, brands/);
    expect(() => resolveTemplate(t, { year: 'soon' })).toThrow(/-p year: expected a year .* \(a year parameter\)/);
    expect(() => resolveTemplate(t, { markets: 'GB,Germany' })).toThrow(/-p markets: 'Germany' is not a market code/);
    expect(() => fromParameterPairs(['year'])).toThrow(/-p takes KEY=VALUE, got 'year'/);
    const good = join(dir, 'good.yaml');
    await writeFile(good, GOOD);
    const r = await cli(['report', good, '-p', 'year=soon', '--out', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/-p year: expected a year/);
  });

  it('says there is no such template, listing the names', async () => {
    const r = await cli(['report', 'no-such-template']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/There is no template named 'no-such-template'.*cross-market-brand-health/);
    const missing = await cli(['templates', 'validate', './missing.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/There is no template file \.\/missing\.yaml/);
  });
});

describe('brandscape templates', () => {
  it('lists the templates with their titles', async () => {
    const r = await cli(['templates', 'list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAME\s+ORIGIN\s+TITLE/);
    expect(r.stdout).toMatch(/cross-market-brand-health\s+bundled\s+Brand health across markets, \{year\}/);
    expect(r.stdout.trim().split('\n')).toHaveLength(6);
  });

  it('shows a template: parameters with their types and defaults, sections, output', async () => {
    const r = await cli(['templates', 'show', 'cross-market-brand-health']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/markets\s+markets\s+default GB, DE, FR, IT, ES, US/);
    expect(r.stdout).toMatch(/year\s+year\s+default latest/);
    expect(r.stdout).toMatch(/1\. cross-market: The four pillars across markets, \{year\} \(chart: heatmap\)/);
    expect(r.stdout).toMatch(/Output: \{template\}-\{year\}-\{date\}\.\{xlsx,html\}/);
  });

  it('validates a good file with exit 0', async () => {
    const good = join(dir, 'good.yaml');
    await writeFile(good, GOOD);
    const r = await cli(['templates', 'validate', good]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/valid \(2 sections; parameters: markets, year, brands\)/);
  });

  it('accepts JSON templates too', async () => {
    const json = join(dir, 'good.json');
    await writeFile(json, JSON.stringify({ title: 'J', data: { markets: ['GB'] }, sections: [{ kind: 'cross-market' }] }));
    expect((await cli(['templates', 'validate', json])).code).toBe(0);
    await writeFile(json, '{"title": "J",');
    const broken = await cli(['templates', 'validate', json]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
  });
});

describe('the metric catalogue the toolkit knows offline', () => {
  it('is the emulator\'s catalogue: every public group with its metric keys, in order', async () => {
    const { createEmulator } = await import('../../../src/emulator/index.js');
    const { createClient } = await import('../../../src/client/create-client.js');
    const { KNOWN_METRIC_GROUPS } = await import('../../../src/catalogue/metric-keys.js');
    const emulator = await createEmulator({ port: 0 });
    try {
      const { columns } = await createClient({ baseUrl: emulator.url, token: emulator.token, env: {} }).metricCatalogue();
      const served = Object.fromEntries([...columns.byGroup].filter(([, keys]) => keys.length > 0));
      expect(served).toEqual(KNOWN_METRIC_GROUPS);
    } finally {
      await emulator.close();
    }
  });
});
