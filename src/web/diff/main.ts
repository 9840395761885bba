// The diff page: fetches the session's last change set (diff.json, same grant as the page) and shows it as text only —
// file names and lines are the repository's (hostile) text, so nothing is ever parsed as HTML.
import type { DiffPageData } from '../../shared/diff-page.js';
import { pageLocale } from '../i18n.js';
import { translator } from '../../shared/i18n.js';

const t = translator(pageLocale(document.cookie, navigator.language));

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function lineClass(line: string): string | undefined {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+') && !line.startsWith('+++')) return 'add';
  if (line.startsWith('-') && !line.startsWith('---')) return 'del';
  return undefined;
}

function show(data: DiffPageData): void {
  const title = document.getElementById('title')!;
  const note = document.getElementById('note')!;
  document.title = t('diff.pageTitle');
  title.textContent = data.files.length ? t('changes.title', { n: data.files.length }) : t('diff.pageTitle');
  if (!data.files.length) note.textContent = t('diff.empty');
  else if (data.patchCut) note.textContent = t('diff.cut');
  const list = document.getElementById('files')!;
  for (const f of data.files) {
    const li = el('li', undefined, `${f.path} `);
    if (f.added === null || f.deleted === null) li.append(el('span', undefined, t('changes.binary')));
    else li.append(el('span', 'add', `+${f.added}`), ' ', el('span', 'del', `−${f.deleted}`));
    list.append(li);
  }
  const diff = document.getElementById('diff')!;
  for (const file of data.fileDiffs) {
    const box = el('section', 'file');
    box.append(el('h2', undefined, file.path));
    const pre = el('pre');
    for (const line of file.text.split('\n')) pre.append(el('span', lineClass(line), line || ' '));
    box.append(pre);
    diff.append(box);
  }
}

document.documentElement.lang = pageLocale(document.cookie, navigator.language);
fetch('diff.json', { credentials: 'same-origin', cache: 'no-store' })
  .then((r) => (r.ok ? (r.json() as Promise<DiffPageData>) : Promise.reject(new Error(String(r.status)))))
  .then(show)
  .catch(() => { document.getElementById('note')!.textContent = t('diff.loadFailed'); });
