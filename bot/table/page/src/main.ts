// The table page: the words and client id from our server, the handshake and sign-in
// with Discord, then one socket that brings the scene (drawn whole on every state) and
// takes the person's actions. Every text on the page comes from the server.
import {fetchConfig} from './api';
import {Connection, socketUrl} from './connection';
import {Discord, SignInError, launchedByDiscord} from './discord';
import {animate} from './draw/motion';
import {actionKey} from './draw/actions';
import {buttonFor, drawScene} from './draw/table';
import {confirm, showConnection, showMessage, showPrivate, showRefusal} from './overlays';
import type {Action, ActFrame, Config, Scene, ServerFrame} from './types';
import {type PageWord, setWords, w} from './words';

const root = document.getElementById('app') as HTMLElement;
// Re-enables a button whose act was accepted when no state follows (one that changed nothing).
const DONE_WITHOUT_STATE_MS = 1_500;
const CONFIG_RETRY_MS = [250, 500, 1_000, 2_000, 4_000];
// Actions that end something for everyone: the page asks first, with these words.
const ASK_FIRST: Record<string, PageWord> = {cancel: 'confirm_cancel', end: 'confirm_end'};

// The words each close code is explained with (table.page.*); 4400 and others: malformed.
const STOPPED: Record<number, PageWord> = {
  4403: 'not_yours',
  4404: 'ended',
  4429: 'slow_down',
};
// What the page says when signing in stops, and the button that tries again.
const SIGN_IN_FAILED: Record<SignInError['failure'], [PageWord, PageWord]> = {
  silent: ['unavailable', 'retry'],
  declined: ['authorize', 'authorize_button'],
  refused: ['refused', 'retry'],
  unavailable: ['unavailable', 'retry'],
};

class Table {
  private token = '';
  private locale = '';
  private shown: {session: number | null; version: number} | null = null;
  private scene: Scene | null = null;
  private skewMs = 0;
  private nextAct = 1;
  private readonly pending = new Map<number, string>();
  private readonly connection: Connection;

  constructor(private readonly discord: Discord) {
    this.connection = new Connection(socketUrl(), {
      hello: () => ({
        t: 'hello',
        v: 1,
        token: this.token,
        instance: this.discord.instanceId,
        locale: this.locale,
      }),
      frame: (frame) => this.received(frame),
      status: (status) => {
        showConnection(status === 'open' ? null : status);
        if (status !== 'open') this.disableButtons();
      },
      stopped: (code) =>
        showMessage(root, w(STOPPED[code] ?? 'malformed'), w('retry'), () =>
          this.connection.start(),
        ),
      signInAgain: () => this.signIn(),
    });
  }

  async start(): Promise<void> {
    showConnection('connecting');
    try {
      await this.discord.ready();
    } catch {
      showConnection(null);
      showMessage(root, w('unavailable'));
      return;
    }
    document.documentElement.dataset.platform = this.discord.platform;
    if (!(await this.signIn())) return;
    this.locale = await this.discord.locale();
    this.connection.start();
  }

  /** Signs in (again): true with a fresh token, else the reason is on screen with Try again. */
  private async signIn(): Promise<boolean> {
    try {
      this.token = await this.discord.signIn();
      return true;
    } catch (error) {
      const [text, button] =
        SIGN_IN_FAILED[error instanceof SignInError ? error.failure : 'unavailable'];
      showConnection(null);
      showMessage(root, w(text), w(button), () => {
        void this.signIn().then((ok) => ok && this.connection.start());
      });
      return false;
    }
  }

  private received(frame: ServerFrame): void {
    switch (frame.t) {
      case 'welcome':
        setWords(frame.words);
        document.documentElement.lang = frame.locale;
        if (this.scene) this.draw(this.scene, false);
        break;
      case 'state':
        this.state(frame.session, frame.version, frame.scene, frame.now);
        break;
      case 'done': {
        const n = frame.n;
        setTimeout(() => this.release(n), DONE_WITHOUT_STATE_MS);
        break;
      }
      case 'refused':
        this.release(frame.n);
        showRefusal(frame.text);
        break;
      case 'private':
        this.release(frame.n);
        showPrivate(frame.title, frame.lines);
        break;
    }
  }

  private state(session: number | null, version: number, scene: Scene, now?: number): void {
    const shown = this.shown;
    if (shown && shown.session === session && version < shown.version) return; // newer drawn
    const moved = shown !== null && (shown.session !== session || version > shown.version);
    if (typeof now === 'number') this.skewMs = now - Date.now();
    this.shown = {session, version};
    this.scene = scene;
    this.pending.clear();
    this.draw(scene, moved);
  }

  private draw(scene: Scene, moved: boolean): void {
    drawScene(root, scene, {
      press: (action, button) => this.press(action, button),
      busy: () => !this.connection.open,
      skewMs: this.skewMs,
    });
    if (!moved) return;
    const announce = document.getElementById('announce');
    if (announce) announce.textContent = scene.cue?.text || scene.headline;
    if (scene.cue) animate(root, scene.cue);
  }

  private press(action: Action, button: HTMLButtonElement): void {
    const question = ASK_FIRST[action.action];
    if (question) confirm(w(question), () => this.send(action, button));
    else this.send(action, button);
  }

  private send(action: Action, button: HTMLButtonElement): void {
    if (!this.shown) return;
    const n = this.nextAct++;
    const frame: ActFrame = {
      t: 'act',
      n,
      session: this.shown.session,
      version: this.shown.version,
      action: action.action,
    };
    if (action.arg) frame.arg = action.arg;
    if (!this.connection.send(frame as unknown as Record<string, unknown>)) {
      showRefusal(w('reconnecting'));
      return;
    }
    button.disabled = true;
    this.pending.set(n, actionKey(action));
  }

  /** The pressed button of act `n` works again (refused, or accepted with nothing to draw). */
  private release(n: number): void {
    const key = this.pending.get(n);
    if (key === undefined) return;
    this.pending.delete(n);
    const action = this.scene ? findAction(this.scene, key) : undefined;
    const button = action && buttonFor(root, action);
    if (button && action.enabled && this.connection.open) button.disabled = false;
  }

  private disableButtons(): void {
    root.querySelectorAll<HTMLButtonElement>('.actions button').forEach((b) => (b.disabled = true));
  }
}

function findAction(scene: Scene, key: string): Action | undefined {
  return scene.actions.find((action) => actionKey(action) === key) ??
    (key.startsWith('open:') ? {action: 'open', arg: key.slice(5)} as Action : undefined);
}

async function config(): Promise<Config> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchConfig();
    } catch {
      const wait = CONFIG_RETRY_MS[Math.min(attempt, CONFIG_RETRY_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

async function main(): Promise<void> {
  const {client_id, words} = await config();
  setWords(words);
  const discord = launchedByDiscord() ? Discord.open(client_id) : null;
  if (!discord) {
    showMessage(root, w('open_from_discord'));
    return;
  }
  await new Table(discord).start();
}

void main().catch(() => showMessage(root, w('malformed')));
