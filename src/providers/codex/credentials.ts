import type { Env } from "../../shared/env.js";
import { errorMessage } from "../../shared/error-message.js";
import { withFileLock } from "../../state/file-lock.js";
import { ProviderError } from "../provider-error.js";
import { expiresAt } from "./jwt.js";
import { accountIdOf, findSignIn, readSignIn, type SignIn, signInPaths, writeSignIn } from "./sign-in-file.js";
import { authServerUrl, refreshTokens } from "./token-client.js";

/** An access token is refreshed this long before it expires, so that it does not expire mid-request. */
const REFRESH_MARGIN_MS = 5 * 60_000;

const SIGN_IN_AGAIN = "sign in again with 'marvin login codex' (or the codex CLI's 'codex login')";

/** What a request to the Codex backend carries. */
export interface CodexAccess {
  accessToken: string;
  accountId?: string;
}

function accessOf(signIn: SignIn): CodexAccess {
  return { accessToken: signIn.tokens.access_token, accountId: accountIdOf(signIn.tokens) };
}

function expiresSoon(signIn: SignIn): boolean {
  const expiry = expiresAt(signIn.tokens.access_token);
  return expiry !== undefined && expiry - Date.now() < REFRESH_MARGIN_MS;
}

function authFailure(message: string, cause?: unknown): ProviderError {
  return new ProviderError(message, { provider: "codex", kind: "auth", cause });
}

/**
 * The ChatGPT sign-in Marvin's requests carry: read from its file when first needed, refreshed before the access
 * token expires and once more when the backend refuses it, and written back to the file it came from. One refresh
 * runs at a time (requests waiting for it share its result), under the file's lock and after reading the file again:
 * a refresh token is good for one use, and another Marvin or the codex CLI may have used it already.
 */
export class CodexCredentials {
  private signIn: SignIn | undefined;
  private refreshing: Promise<SignIn> | undefined;

  constructor(
    private readonly env: Env,
    private readonly home: string,
  ) {}

  /** The access to send now; refreshed first when it expires within five minutes. Throws a ProviderError. */
  async current(): Promise<CodexAccess> {
    const signIn = this.signIn ?? (await this.load());
    return accessOf(expiresSoon(signIn) ? await this.refresh(signIn.tokens.access_token) : signIn);
  }

  /** The access to send after the backend refused `refused` (HTTP 401). Throws a ProviderError. */
  async afterRefusal(refused: string): Promise<CodexAccess> {
    return accessOf(await this.refresh(refused));
  }

  private async load(): Promise<SignIn> {
    let found: SignIn | undefined;
    try {
      found = await findSignIn(this.env, this.home);
    } catch (error) {
      throw authFailure(`The ChatGPT sign-in cannot be read: ${errorMessage(error)}; ${SIGN_IN_AGAIN}.`, error);
    }
    if (!found) {
      const { marvin, codex } = signInPaths(this.env, this.home);
      throw authFailure(
        `No ChatGPT sign-in found (neither ${marvin} nor ${codex} exists): sign in with 'marvin login codex' ` +
          "(or the codex CLI's 'codex login').",
      );
    }
    this.signIn = found;
    return found;
  }

  private refresh(stale: string): Promise<SignIn> {
    this.refreshing ??= this.refreshUnderLock(stale).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refreshUnderLock(stale: string): Promise<SignIn> {
    const path = (this.signIn ?? (await this.load())).path;
    return withFileLock(path, async () => {
      let onDisk: SignIn | undefined;
      try {
        onDisk = await readSignIn(path);
      } catch (error) {
        throw authFailure(`The ChatGPT sign-in cannot be read: ${errorMessage(error)}; ${SIGN_IN_AGAIN}.`, error);
      }
      if (!onDisk) throw authFailure(`The ChatGPT sign-in in ${path} is gone; ${SIGN_IN_AGAIN}.`);
      if (onDisk.tokens.access_token !== stale && !expiresSoon(onDisk)) {
        this.signIn = onDisk; // refreshed meanwhile by another process: its refresh token is the one to keep
        return onDisk;
      }
      let tokens: SignIn["tokens"];
      try {
        tokens = await refreshTokens(authServerUrl(this.env), onDisk.tokens);
      } catch (error) {
        throw authFailure(`The ChatGPT sign-in could not be refreshed (${errorMessage(error)}): ${SIGN_IN_AGAIN}.`);
      }
      this.signIn = await writeSignIn(path, onDisk.raw, tokens);
      return this.signIn;
    });
  }
}
