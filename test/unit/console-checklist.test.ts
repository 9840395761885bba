// The Feishu-console checklist `larkmux setup` prints names each scope and page in English and in Chinese (the
// console shows Chinese to most Feishu users, and they search for those names).
import { describe, expect, it } from 'vitest';
import { SCOPES, consoleChecklist } from '../../src/cli/setup/console-settings.js';

const lines = consoleChecklist({ appId: 'cli_0123456789abcdef', domain: 'feishu', events: 'websocket' });

describe('console checklist', () => {
  it.each(SCOPES.map((s) => [s.scope, s] as const))('%s is printed with its Chinese and English console names', (scope, s) => {
    const at = lines.findIndex((l) => l.trim().startsWith(`${scope} `));
    expect(at).toBeGreaterThan(-1);
    expect(lines[at + 1]).toContain(`「${s.labelZh}」`);
    expect(lines[at + 1]).toContain(s.label);
    expect(s.labelZh).toMatch(/[\u4e00-\u9fff]/);
  });

  it.each(['添加应用能力 → 机器人', '权限管理', '事件与回调 → 事件配置', '事件与回调 → 回调配置', '版本管理与发布', '可用范围', '接收消息', '卡片回传交互', '长连接'])(
    'names the console page %s',
    (zh) => expect(lines.join('\n')).toContain(zh),
  );
});
