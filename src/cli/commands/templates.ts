/**
 * `brandscape templates list | show NAME | validate FILE`: the report templates there are, what a
 * template asks for (its parameters and defaults), and whether a template file can be used.
 */
import { PARAMETER_TYPES, UsageError, listTemplates, loadTemplate, parameterTextOf, resolveTemplate } from '../../index.js';
import { fromArgv } from '../args.js';
import { EXIT, type CommandIo } from '../io.js';

export const templatesHelp = `Usage: brandscape templates list
       brandscape templates show NAME|FILE
       brandscape templates validate FILE|NAME

list       The templates found by name: the project's own (./templates/) and the toolkit's.
show       A template's title, parameters (type, default, description), sections and outputs.
validate   Checks a template file: its structure, its parameters' defaults, and every section
           with the defaults applied. Exit 0 when it can be used; exit 2 with every problem
           named by its path (e.g. sections[2].chart) otherwise.

Parameter types: ${PARAMETER_TYPES.join(', ')}.

Exit codes: 0 ok, 2 unknown template or a template that cannot be used.
`;

export async function runTemplates(argv: readonly string[], io: CommandIo): Promise<number> {
  const { values, positionals } = fromArgv('templates', argv, { help: { type: 'boolean', short: 'h' } }, true);
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
      io.stdout.write(`${target}: valid (${resolved.sections.length} section${resolved.sections.length === 1 ? '' : 's'}; parameters: ${Object.keys(template.parameters).join(', ') || 'none'}).\n`);
      return EXIT.ok;
    }
    default:
      throw new UsageError(action === undefined ? 'templates needs an action: list, show or validate.' : `Unknown action '${action}': use list, show or validate.`, { hint: "Run 'brandscape templates --help'." });
  }
}
