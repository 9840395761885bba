// The composer's attachments (upload as the person picks them, sent with the next message) and how media shows in the chat.
import { CONSOLE_PATHS, ConsoleUploadReplySchema, type ConsoleMedia } from '../../shared/console-protocol.js';
import type { Translate } from '../../shared/i18n.js';

const MIB = 1024 * 1024;

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MIB) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / MIB).toFixed(1)} MB`;
}

/** A picture inline (with its download), or a file as a download link; both are served only behind the console cookie. */
export function mediaElement(m: ConsoleMedia, tr: Translate): HTMLElement {
  const box = document.createElement('div');
  box.className = `media media-${m.kind}`;
  box.dataset.ref = m.ref;
  const link = document.createElement('a');
  link.className = 'media-link';
  link.href = `${CONSOLE_PATHS.file}${encodeURIComponent(m.ref)}`;
  link.download = m.name || 'file';
  link.textContent = `${m.kind === 'image' ? '🖼' : '📄'} ${m.name || tr('console.media.download')} · ${sizeText(m.size)}`;
  link.title = tr('console.media.download');
  if (m.kind === 'image') {
    const img = document.createElement('img');
    img.className = 'media-img';
    img.src = `${CONSOLE_PATHS.image}${encodeURIComponent(m.ref)}`;
    img.alt = m.name;
    // Kept in the daemon's memory: after a restart the picture is gone, and the page says so instead of a broken image.
    img.addEventListener('error', () => img.replaceWith(gone(tr)));
    box.append(img);
  }
  box.append(link);
  return box;
}

function gone(tr: Translate): HTMLElement {
  const p = document.createElement('p');
  p.className = 'media-gone';
  p.textContent = tr('console.media.gone');
  return p;
}

export interface AttachmentsView {
  input: HTMLInputElement;
  list: HTMLElement;
  toast(level: 'error', text: string): void;
  tr(): Translate;
  /** The most one file may be (the hello's uploadBytes). */
  capBytes(): number | undefined;
}

/** What the composer carries until the next send: uploaded files, and how many are still on their way. */
export class ComposerAttachments {
  private ready: ConsoleMedia[] = [];
  private uploading = 0;

  constructor(private readonly view: AttachmentsView) {
    view.input.addEventListener('change', () => {
      const files = [...(view.input.files ?? [])];
      view.input.value = '';
      for (const f of files) void this.add(f);
    });
  }

  get busy(): boolean {
    return this.uploading > 0;
  }

  refs(): string[] {
    return this.ready.map((m) => m.ref);
  }

  clear(): void {
    this.ready = [];
    this.render();
  }

  private async add(file: File): Promise<void> {
    const tr = this.view.tr();
    const cap = this.view.capBytes();
    if (cap !== undefined && file.size > cap) return this.view.toast('error', tr('console.attach.tooLarge', { mb: Math.floor(cap / MIB) }));
    if (file.size === 0) return this.view.toast('error', tr('console.attach.empty'));
    this.uploading++;
    this.render();
    try {
      const res = await fetch(CONSOLE_PATHS.upload, { method: 'POST', body: file, credentials: 'same-origin', headers: { 'x-file-name': encodeURIComponent(file.name) } });
      const reply = ConsoleUploadReplySchema.safeParse(await res.json().catch(() => null));
      if (!reply.success) this.view.toast('error', tr('console.attach.failed'));
      else if (!reply.data.ok) this.view.toast('error', reply.data.error);
      else this.ready.push(reply.data.media);
    } catch {
      this.view.toast('error', tr('console.attach.failed'));
    } finally {
      this.uploading--;
      this.render();
    }
  }

  private render(): void {
    const tr = this.view.tr();
    const chips = this.ready.map((m) => {
      const chip = document.createElement('span');
      chip.className = 'attached-chip';
      chip.dataset.ref = m.ref;
      chip.textContent = `${m.kind === 'image' ? '🖼' : '📄'} ${m.name} · ${sizeText(m.size)}`;
      const x = document.createElement('button');
      x.type = 'button';
      x.className = 'attached-remove';
      x.textContent = '×';
      x.title = tr('console.attach.remove');
      x.setAttribute('aria-label', tr('console.attach.remove'));
      x.addEventListener('click', () => {
        this.ready = this.ready.filter((r) => r !== m);
        this.render();
      });
      chip.append(x);
      return chip;
    });
    if (this.uploading > 0) {
      const busy = document.createElement('span');
      busy.className = 'attached-chip uploading';
      busy.textContent = tr('console.attach.uploading');
      chips.push(busy);
    }
    this.view.list.replaceChildren(...chips);
    this.view.list.hidden = chips.length === 0;
  }
}
