// Renders the settings table of docs/configuration.md from ConfigSchema's descriptions and defaults.
import { z } from 'zod';
import { BotConfigSchema, ConfigSchema, ConsoleConfigSchema } from './config.js';
import { HostConfigSchema } from './host-config.js';

interface JsonSchemaNode {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchemaNode>;
  anyOf?: JsonSchemaNode[];
}

function typeOf(n: JsonSchemaNode): string {
  if (n.enum) return n.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (n.anyOf) return n.anyOf.map(typeOf).join(' \\| ');
  if (Array.isArray(n.type)) return n.type.join(' \\| ');
  return n.type ?? 'object';
}

function rows(schema: z.ZodType, prefix: string): string[] {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchemaNode;
  const out: string[] = [];
  for (const [key, node] of Object.entries(js.properties ?? {})) {
    if (node.properties && !node.description) {
      for (const [k2, n2] of Object.entries(node.properties)) out.push(row(`${prefix}${key}.${k2}`, n2));
    } else if (key !== 'bots' && key !== 'hosts') {
      out.push(row(`${prefix}${key}`, node));
    }
  }
  return out;
}

function row(name: string, n: JsonSchemaNode): string {
  const def = n.default === undefined ? '' : `\`${JSON.stringify(n.default)}\``;
  return `| \`${name}\` | ${typeOf(n)} | ${def} | ${n.description ?? ''} |`;
}

export function configReference(): string {
  const head = ['| setting | type | default | what it does |', '|---|---|---|---|'];
  return [
    '# Configuration',
    '',
    '<!-- Generated from src/shared/config.ts by `npx tsx scripts/gen-config-docs.ts`; edit the schema, not this table. -->',
    '',
    'larkmux reads `$LARKMUX_HOME/config.json` (default `~/.larkmux/config.json`). It is checked by `larkmux start`,',
    '`restart` and `doctor`, which list every mistake at once (the folders named by `workingDir` and `projects` included):',
    'each error names the field, the value given and what is allowed, suggests the setting you probably meant for a',
    'misspelt key, and never prints a secret (a secret field shows `(hidden)`). Any string may contain `${NAME}`, which',
    'is replaced by the environment variable `NAME`, so secrets need not be written in the file; keep a file that holds',
    'secrets readable by you alone (`chmod 600`; `larkmux setup` writes it so, `doctor` and `start` warn otherwise).',
    '`larkmux setup --scan` creates a new Feishu/Lark app from one link confirmed in Feishu/Lark (the SDK\'s scan-to-create)',
    'and writes its `appId` and `appSecret` into a bot entry like any other; `--accounts-url https://host` names the scan',
    'service of a private deployment (default: `accounts.feishu.cn`, or `accounts.larksuite.com` for a Lark account).',
    '',
    '```json',
    '{ "web": { "port": 7680, "host": "127.0.0.1", "publicUrl": "https://box.example.com" },',
    '  "tmux": { "socket": null },',
    '  "bots": [ { "name": "claude", "appId": "cli_a1b2c3d4e5f60718", "appSecret": "${LARK_APP_SECRET}",',
    '              "domain": "feishu", "events": "websocket", "cli": "claude-code", "workingDir": "~/code",',
    '              "projects": ["~/code/a", "~/code/b"], "allowedUsers": ["ou_..."] } ] }',
    '```',
    '',
    '## Top level',
    '',
    ...head,
    ...rows(ConfigSchema, ''),
    '',
    '## `console` as an object',
    '',
    ...head,
    ...rows(ConsoleConfigSchema, 'console.'),
    '',
    '## Each entry of `bots`',
    '',
    ...head,
    ...rows(BotConfigSchema, ''),
    '',
    '## Each entry of `hosts`',
    '',
    'Other machines larkmux reaches with the system `ssh` client (`larkmux hosts add NAME user@host` pins the host key and',
    'adds the entry; `larkmux hosts check NAME` checks node, tmux, the CLIs, disk and the working dirs there). In a topic,',
    '`/cd gpu1:/srv/app` (or the project picker\'s `host:dir` entries, or a bot\'s `host`) places the session on a host,',
    'within its `workingDirs` when given; its caps count every bot\'s sessions there. The session\'s worker and CLI then',
    'run on that host (only node and tmux are needed there; nothing listens on it but sshd). See docs/operations.md,',
    '"Several hosts".',
    '',
    ...head,
    ...rows(HostConfigSchema, ''),
    '',
  ].join('\n');
}
