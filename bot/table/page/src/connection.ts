// The tab's one WebSocket to the table server: `hello` first, then frames both ways.
// Drops reconnect with backoff (0.25 s doubling to 4 s); a refused token (4401) signs in
// again first; the other 44xx closes are final until the person asks to try again.
import type {ServerFrame} from './types';

const FIRST_DELAY_MS = 250;
const LONGEST_DELAY_MS = 4_000;
const WELCOME_MS = 10_000;
export const TOKEN_REFUSED = 4401;

export type Status = 'connecting' | 'open' | 'reconnecting';

export interface Handlers {
  /** The hello frame to send on every (re)connect. */
  hello(): Record<string, unknown>;
  frame(frame: ServerFrame): void;
  status(status: Status): void;
  /** A 44xx close other than 4401: the page says why and offers to try again. */
  stopped(code: number): void;
  /** 4401: a fresh access token (sign in again), or null to stop there. */
  signInAgain(): Promise<boolean>;
}

export function socketUrl(href: string = location.href): string {
  const url = new URL('api/ws', href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  url.hash = '';
  return url.toString();
}

export class Connection {
  private socket: WebSocket | null = null;
  private delay = FIRST_DELAY_MS;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private welcomeTimer: ReturnType<typeof setTimeout> | null = null;
  private welcomed = false;

  constructor(
    private readonly url: string,
    private readonly on: Handlers,
  ) {
    // A phone back from sleep or back online: try now rather than after the backoff.
    window.addEventListener('online', () => this.retryNow());
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') this.retryNow();
    });
  }

  get open(): boolean {
    return this.welcomed && this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    this.cancelRetry();
    this.delay = FIRST_DELAY_MS;
    this.connect('connecting');
  }

  send(frame: Record<string, unknown>): boolean {
    if (!this.open || !this.socket) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  private connect(status: Status): void {
    this.on.status(status);
    this.welcomed = false;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      socket.send(JSON.stringify(this.on.hello()));
      this.welcomeTimer = setTimeout(() => socket.close(4000, 'no welcome'), WELCOME_MS);
    };
    socket.onmessage = (event) => this.received(socket, event);
    socket.onclose = (event) => this.closed(socket, event.code);
  }

  private received(socket: WebSocket, event: MessageEvent): void {
    if (socket !== this.socket || typeof event.data !== 'string') return;
    let frame: ServerFrame;
    try {
      frame = JSON.parse(event.data) as ServerFrame;
    } catch {
      return;
    }
    if (frame.t === 'welcome') {
      this.welcomed = true;
      this.delay = FIRST_DELAY_MS;
      this.clearWelcomeTimer();
      this.on.status('open');
    }
    this.on.frame(frame);
  }

  private closed(socket: WebSocket, code: number): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.welcomed = false;
    this.clearWelcomeTimer();
    if (code === TOKEN_REFUSED) {
      this.on.status('reconnecting');
      void this.on.signInAgain().then((signedIn) => signedIn && this.connect('reconnecting'));
      return;
    }
    if (code >= 4400 && code < 4500) {
      this.on.stopped(code);
      return;
    }
    this.on.status('reconnecting');
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect('reconnecting');
    }, this.delay);
    this.delay = Math.min(this.delay * 2, LONGEST_DELAY_MS);
  }

  private retryNow(): void {
    if (this.retry === null) return;
    this.cancelRetry();
    this.connect('reconnecting');
  }

  private cancelRetry(): void {
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
  }

  private clearWelcomeTimer(): void {
    if (this.welcomeTimer !== null) clearTimeout(this.welcomeTimer);
    this.welcomeTimer = null;
  }
}
