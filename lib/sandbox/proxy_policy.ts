/**
 * The proxy's decision for one requested `host:port`: allowed by the list, allowed by the user when asked,
 * or refused, and which resolved addresses it may connect to. Names are resolved here, outside the sandbox,
 * and the connection goes to the addresses checked, so a second lookup cannot answer differently.
 * @module
 */
import { lookup } from "node:dns/promises";
import { type DomainList, isIpLiteral, matchDomain, normalizeHost } from "./proxy_domains.ts";
import { isPublicAddress } from "./proxy_address.ts";
import { log } from "../log.ts";

/** Why a connection was refused. */
export type RefusalReason =
  /** The host is not in the allowed domains (nor allowed by the user when asked). */
  | "not_listed"
  /** The host matched a `*.` entry but resolves only to loopback, private or link-local addresses. */
  | "private_address"
  /** The user was asked and said no, earlier or now. */
  | "denied_by_user";

/**
 * The user's answer to "may jobs reach this host?": for this job, for good, no (not asked again while the
 * server runs), or no answer (the question was dismissed: refused this time, asked again later).
 */
export type DomainAnswer = "once" | "always" | "deny" | "dismissed";

/** A question for the user about a host no list allows: the MCP client's elicitation, where it has one. */
export interface DomainQuestion {
  jobId: string;
  host: string;
  port: number;
}

/** The outcome of {@link DomainPolicy.check}. */
export type Verdict =
  | { allowed: true; addresses: string[] }
  | { allowed: false; reason: RefusalReason }
  | { allowed: false; reason: "unresolved"; message: string };

/** Resolves a name to its addresses (IPv4 and IPv6); throws when it cannot. */
export type Resolver = (host: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), as every other program on the host sees it. */
export async function systemResolver(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** The per-job state the policy reads and writes: hosts the user allowed for this job only. */
export interface JobGrants {
  readonly jobId: string;
  readonly allowedOnce: Set<string>;
  /** Hosts this job already made the user answer for: a job gets at most a few questions. */
  asked: number;
}

/** Settings of {@link DomainPolicy}. */
export interface PolicyOptions {
  resolve?: Resolver;
  /** Asks the user about a host no list allows; absent: such hosts are refused without asking. */
  ask?: (question: DomainQuestion) => Promise<DomainAnswer>;
  /** An unanswered question counts as "deny" for that connection after this long. */
  askTimeoutMs?: number;
  /** A name lookup that takes longer fails the connection (502). */
  resolveTimeoutMs?: number;
  /** Questions one job may raise; beyond it, new hosts are refused without asking (no prompt floods). */
  askLimitPerJob?: number;
  /**
   * Listed hosts that came from the workspace (its git remotes), not from the user: a cloned repository
   * chooses them, so, like a `*.` match, they are reached on public addresses only (never the host's
   * loopback, the LAN or a cloud metadata address).
   */
  publicOnly?: Iterable<string>;
}

/** Decides, per requested host, whether and where the proxy may connect. */
export class DomainPolicy {
  readonly #list: DomainList;
  readonly #resolve: Resolver;
  readonly #ask: PolicyOptions["ask"];
  readonly #askTimeoutMs: number;
  readonly #askLimit: number;
  readonly #resolveTimeoutMs: number;
  readonly #publicOnly: Set<string>;
  /** Hosts the user allowed "always" while this server runs (the caller stores them for later runs). */
  readonly #alwaysAllowed = new Set<string>();
  /** Hosts the user refused: never asked again while this server runs. */
  readonly #denied = new Set<string>();
  /** One question at a time: the user answers prompts one by one. */
  #questions: Promise<unknown> = Promise.resolve();

  constructor(list: DomainList, options: PolicyOptions = {}) {
    this.#list = list;
    this.#resolve = options.resolve ?? systemResolver;
    this.#ask = options.ask;
    this.#askTimeoutMs = options.askTimeoutMs ?? 120_000;
    this.#askLimit = options.askLimitPerJob ?? 3;
    this.#resolveTimeoutMs = options.resolveTimeoutMs ?? 15_000;
    this.#publicOnly = new Set(
      [...options.publicOnly ?? []].map(normalizeHost).filter((host): host is string => host !== null),
    );
  }

  /** The verdict for `host` (normalized) and `port` on behalf of `job`. */
  async check(host: string, port: number, job: JobGrants, signal?: AbortSignal): Promise<Verdict> {
    let match = matchDomain(host, this.#list);
    if (!match && (this.#alwaysAllowed.has(host) || job.allowedOnce.has(host))) match = "exact";
    if (!match) {
      const refused = await this.#askUser(host, port, job);
      if (refused) return { allowed: false, reason: refused };
      match = "exact";
    }
    // A name listed exactly is the user's (or a registry's) own; a `*.` match may be anyone's subdomain, and a
    // workspace's own host is the cloned repository's choice.
    const publicOnly = match === "wildcard" || (match === "exact" && this.#publicOnly.has(host) &&
      !this.#alwaysAllowed.has(host) && !job.allowedOnce.has(host));
    if (isIpLiteral(host)) {
      return publicOnly && !isPublicAddress(host)
        ? { allowed: false, reason: "private_address" }
        : { allowed: true, addresses: [host] };
    }
    let addresses: string[];
    try {
      const resolved = await withTimeout(abortable(this.#resolve(host), signal), this.#resolveTimeoutMs);
      if (resolved === "timeout") throw new Error("the name lookup timed out");
      addresses = resolved;
    } catch (error) {
      return { allowed: false, reason: "unresolved", message: error instanceof Error ? error.message : "" };
    }
    if (publicOnly) addresses = addresses.filter(isPublicAddress);
    if (addresses.length === 0) return { allowed: false, reason: "private_address" };
    return { allowed: true, addresses };
  }

  async #askUser(host: string, port: number, job: JobGrants): Promise<RefusalReason | null> {
    if (this.#denied.has(host)) return "denied_by_user";
    const ask = this.#ask;
    if (!ask || job.asked >= this.#askLimit) return "not_listed";
    job.asked++;
    const answer = this.#questions.then(() => {
      // Answered while this question waited its turn.
      if (this.#alwaysAllowed.has(host) || job.allowedOnce.has(host)) return "once" as const;
      if (this.#denied.has(host)) return "deny" as const;
      return withTimeout(ask({ jobId: job.jobId, host, port }), this.#askTimeoutMs);
    });
    this.#questions = answer.catch(() => {});
    let reply: DomainAnswer | "timeout";
    try {
      reply = await answer;
    } catch (error) {
      // A client that cannot elicit, or a broken connection: treated as no answer.
      log.debug(`The question about "${host}" failed`, error);
      reply = "dismissed";
    }
    if (reply === "always") this.#alwaysAllowed.add(host);
    else if (reply === "once") job.allowedOnce.add(host);
    else if (reply === "deny") this.#denied.add(host);
    return reply === "always" || reply === "once" ? null : reply === "deny" ? "denied_by_user" : "not_listed";
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms));
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
