// Discord's side, through the real Embedded App SDK: the handshake, then who the person
// is (AUTHORIZE -> our server's token exchange -> AUTHENTICATE) and their language.
// The SDK only logs a frame it cannot parse and leaves its promise pending forever, so
// every step here has a timeout.
import {DiscordSDK} from '@discord/embedded-app-sdk';
import {exchangeCode} from './api';

const READY_MS = 15_000;
const COMMAND_MS = 15_000;
// AUTHORIZE may wait on the person reading Discord's consent dialog.
const AUTHORIZE_MS = 300_000;

/** Why signing in stopped: each has its own words and its own way on. */
export type SignInFailure = 'silent' | 'declined' | 'refused' | 'unavailable';

export class SignInError extends Error {
  constructor(readonly failure: SignInFailure) {
    super(failure);
  }
}

/** Whether Discord launched this page: it always adds these three query parameters. */
export function launchedByDiscord(search: string = location.search): boolean {
  const query = new URLSearchParams(search);
  return ['frame_id', 'instance_id', 'platform'].every((name) => query.get(name));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new SignInError('silent')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export class Discord {
  private constructor(
    private readonly sdk: DiscordSDK,
    private readonly clientId: string,
  ) {}

  /** The SDK, which sends the handshake; null when the query is not Discord's. */
  static open(clientId: string): Discord | null {
    try {
      return new Discord(new DiscordSDK(clientId, {disableConsoleLogOverride: true}), clientId);
    } catch {
      return null;
    }
  }

  get instanceId(): string {
    return this.sdk.instanceId;
  }

  get platform(): string {
    return this.sdk.platform;
  }

  async ready(): Promise<void> {
    await withTimeout(this.sdk.ready(), READY_MS);
  }

  /** An access token for this person, or a SignInError saying why not. */
  async signIn(): Promise<string> {
    let code: string;
    try {
      ({code} = await withTimeout(
        this.sdk.commands.authorize({
          client_id: this.clientId,
          response_type: 'code',
          state: '',
          prompt: 'none',
          scope: ['identify'],
        }),
        AUTHORIZE_MS,
      ));
    } catch (error) {
      throw error instanceof SignInError ? error : new SignInError('declined');
    }
    const token = await exchangeCode(code);
    if (!token.ok) {
      throw new SignInError(token.error === 'code_refused' ? 'refused' : 'unavailable');
    }
    try {
      await withTimeout(
        this.sdk.commands.authenticate({access_token: token.accessToken}),
        COMMAND_MS,
      );
    } catch (error) {
      throw error instanceof SignInError ? error : new SignInError('refused');
    }
    return token.accessToken;
  }

  /** The person's Discord language (e.g. de, en-US, pt-BR); '' when Discord will not say. */
  async locale(): Promise<string> {
    try {
      return (await withTimeout(this.sdk.commands.userSettingsGetLocale(), COMMAND_MS)).locale;
    } catch {
      return '';
    }
  }
}
