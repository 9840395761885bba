// The console's rendering of a notice's `code` spans (src/web/console/inline-code.ts): as Feishu's markdown does.
import { describe, expect, it } from 'vitest';
import { inlineCodeParts } from '../../src/web/console/inline-code.js';

const plain = (text: string) => ({ code: false, text });
const code = (text: string) => ({ code: true, text });

describe('inlineCodeParts', () => {
  it.each([
    ['no backticks', 'Session started.', [plain('Session started.')]],
    ['empty', '', [plain('')]],
    ['one span', 'Run `larkmux start` again.', [plain('Run '), code('larkmux start'), plain(' again.')]],
    ['two spans', 'Create it (`mkdir -p /x`), or `/cd`.', [plain('Create it ('), code('mkdir -p /x'), plain('), or '), code('/cd'), plain('.')]],
    ['at both ends', '`a` and `b`', [code('a'), plain(' and '), code('b')]],
    ['HTML stays text', 'see `<b>x</b>` & <i>', [plain('see '), code('<b>x</b>'), plain(' & <i>')]],
    ['an unpaired backtick stays', 'it`s `fine', [plain('it'), code('s '), plain('fine')]],
    ['a lone backtick', 'a ` b', [plain('a ` b')]],
    ['an empty pair stays', 'x `` y', [plain('x `` y')]],
    ['a span does not cross lines', 'a `b\nc` d', [plain('a `b\nc` d')]],
    ['CJK inside', '文件夹 `{path}` 不存在', [plain('文件夹 '), code('{path}'), plain(' 不存在')]],
  ])('%s', (_name, text, parts) => {
    expect(inlineCodeParts(text)).toEqual(parts);
  });
});
