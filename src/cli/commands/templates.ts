/**
 * `brandscape templates list | show NAME | validate FILE`: the report templates there are, what a
 * template asks for (its parameters and defaults), and whether a template file can be used.
 */
import { TemplateError, UsageError, checkAgainstService, loadTemplate, resolveTemplate } from '../../index.js';
import { checkTemplateOffline } from '../../report/check-offline.js';
import { listTemplates } from '../../report/template/load-template.js';
import { PARAMETER_TYPES, parameterText as parameterTextOf } from '../../report/template/template-params.js';
import { fromArgv } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';
import { SERVICE_HELP, SERVICE_OPTIONS, openService } from '../service.js';

export const templatesHelp = `Usage: brandscape templates list
       brandscape templates show NAME|FILE
       brandscape templates validate FILE|NAME [--online]

list       The templates found by name: the project's own (./templates/) and the toolkit's.
show       A template's title, parameters (type, default, description), sections and outputs.
validate   Checks a template file: its structure, its parameters' defaults, every section
           with the defaults applied, its output name, and its metric keys and groups against
           the catalogue the toolkit knows. Exit 0 when it can be used, saying what only the
           service can check (markets, years, brands, ids); exit 2 with every problem named by
           its path (e.g. sections[2].chart) otherwise.
           --online also checks those against the service, as 'brandscape report' does before
           it loads any data (no data is loaded).

Options of validate --online:
${SERVICE_HELP}

Parameter types: ${PARAMETER_TYPES.join(', ')}.

Exit codes: 0 ok, 2 unknown template or a template that cannot be used.
`;

/** The host of a base URL, for a message (never a token or a path). */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export async function runTemplates(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = fromArgv('templates', argv, { ...SERVICE_OPTIONS, online: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.stdout.write(templatesHelp);
    return EXIT.ok;
  }
  const [action, target, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`templates ${action ?? ''} takes one template.`, { hint: "Run 'brandscape templates --help'." });
  switch (action) {
    case 'list': {
      if (target !== undefined) throw new UsageError('templates list takes no argument.');
      const entries = await listTemplates({ cwd: io.cwd });
      const width = Math.max(4, ...entries.map((e) => e.name.length));
      io.stdout.write(`${'NAME'.padEnd(width)}  ORIGIN    TITLE\n`);
      for (const entry of entries) {
        let title: string;
        try {
          title = (await loadTemplate(entry.path, { cwd: io.cwd })).title;
        } catch {
          title = `(cannot be used: run 'brandscape templates validate ${entry.path}')`;
        }
        io.stdout.write(`${entry.name.padEnd(width)}  ${entry.origin.padEnd(8)}  ${title}\n`);
      }
      return EXIT.ok;
    }
    case 'show': {
      if (target === undefined) throw new UsageError('templates show takes a template name or file.');
      const template = await loadTemplate(target, { cwd: io.cwd });
      const resolved = resolveTemplate(template);
      const out: string[] = [`${template.name}: ${template.title}`, `  source: ${template.source}`];
      if (template.description) out.push(`  ${template.description}`);
      out.push('', 'Parameters (set with -p NAME=VALUE):');
      const params = Object.entries(template.parameters);
      if (params.length === 0) out.push('  (none)');
      const width = Math.max(...params.map(([n]) => n.length), 4);
      for (const [name, spec] of params) {
        out.push(`  ${name.padEnd(width)}  ${spec.type.padEnd(8)}  default ${parameterTextOf(spec.default)}${spec.description ? `\n  ${' '.repeat(width)}  ${spec.description}` : ''}`);
      }
      out.push('', 'Sections:');
      resolved.sections.forEach((s, i) => out.push(`  ${i + 1}. ${s.kind}${s.title ? `: ${s.title}` : ''}${'chart' in s && s.chart ? ` (chart: ${s.chart})` : ''}`));
      out.push('', `Output: ${resolved.output.name}.{${resolved.output.formats.join(',')}}`);
      io.stdout.write(`${out.join('\n')}\n`);
      return EXIT.ok;
    }
    case 'validate': {
      if (target === undefined) throw new UsageError('templates validate takes a template file or name.');
      const template = await loadTemplate(target, { cwd: io.cwd });
      const resolved = resolveTemplate(template);
      const offline = checkTemplateOffline(resolved);
      if (offline.problems.length > 0) throw new TemplateError(template.source, offline.problems);
      const summary = `${resolved.sections.length} section${resolved.sections.length === 1 ? '' : 's'}; parameters: ${Object.keys(template.parameters).join(', ') || 'none'}`;
      if (values.online) {
        const service = await openService(io, values);
        try {
          await checkAgainstService(service.client, resolved, { signal: io.signal });
        } finally {
          await service.close();
        }
        io.stdout.write(`${target}: valid (${summary}), checked against the service at ${hostOf(service.client.baseUrl)}.\n`);
        return EXIT.ok;
      }
      io.stdout.write(`${target}: valid (${summary}).\n`);
      io.stdout.write(`Not checked offline (only the service knows; 'brandscape report' checks them before it loads any data, as does 'templates validate --online'):\n`);
      for (const line of offline.unchecked) io.stdout.write(`  - ${line}\n`);
      return EXIT.ok;
    }
    default:
      throw new UsageError(action === undefined ? 'templates needs an action: list, show or validate.' : `Unknown action '${action}': use list, show or validate.`, { hint: "Run 'brandscape templates --help'." });
  }
}
