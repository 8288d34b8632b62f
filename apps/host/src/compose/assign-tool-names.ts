import { nameDigest } from './tool-names.ts';

/** One upstream tool that wants a composed name. */
export interface NameClaim<Owner> {
  owner: Owner;
  /** The composed name it would get alone (`composedToolName`). */
  name: string;
  /**
   * What the claim stands for, whatever the config order: `<server>/<tool>`,
   * the server's name and the tool's own name. A claim that cannot keep
   * `name` is named from it.
   */
  identity: string;
}

/** A claim with the name it gets, and, when that is not the name it wanted, the other claims that wanted it too. */
export type AssignedName<Owner, Claim extends NameClaim<Owner>> = Claim & {
  exposedName: string;
  /** The other claims on `name`, in the order given; empty when the claim got its own name. */
  sharedWith: Claim[];
};

const maxNameLength = 64;

/** `name` with `-` and a digest of `identity`, cut to stay within 64 characters. */
function withDigest(name: string, identity: string, attempt: number): string {
  const suffix = `-${nameDigest(attempt === 0 ? identity : `${identity}#${attempt}`)}`;
  return `${name.slice(0, maxNameLength - suffix.length)}${suffix}`;
}

/**
 * Gives every claim a distinct name that depends on the claims themselves,
 * never on their order, so reordering the config cannot move a name from
 * one server's tool to another's. A name only one claim wants is its own.
 * A name two or more claims want is given to none of them: each gets the
 * name with `-` and the first 8 hex digits of the SHA-256 of its identity
 * (`a_b_c-1c0f3a9e`), cut to stay within 64 characters — so while they
 * collide, the plain name calls nothing rather than whichever came first.
 * Names that claims want as their own are never given out as digested ones.
 *
 * @example
 * assignToolNames([
 *   { owner: 'a', name: 'a_b_c', identity: 'a/b_c' },
 *   { owner: 'a_b', name: 'a_b_c', identity: 'a_b/c' },
 * ]);
 * // a's b_c is a_b_c-<digest of "a/b_c">, a_b's c is a_b_c-<digest of "a_b/c">, in either order
 */
export function assignToolNames<Owner, Claim extends NameClaim<Owner>>(
  claims: readonly Claim[],
): AssignedName<Owner, Claim>[] {
  const wanting = new Map<string, Claim[]>();
  for (const claim of claims) {
    const wanted = wanting.get(claim.name);
    if (wanted === undefined) wanting.set(claim.name, [claim]);
    else wanted.push(claim);
  }
  const taken = new Set(wanting.keys());
  return claims.map((claim) => {
    const sharedWith = (wanting.get(claim.name) ?? []).filter((other) => other !== claim);
    if (sharedWith.length === 0) return { ...claim, exposedName: claim.name, sharedWith };
    // Another attempt only when the digested name is already someone's: a tool that wants it as its own, or the
    // same tool listed twice by its server.
    let exposedName = withDigest(claim.name, claim.identity, 0);
    for (let attempt = 1; taken.has(exposedName); attempt++) {
      exposedName = withDigest(claim.name, claim.identity, attempt);
    }
    taken.add(exposedName);
    return { ...claim, exposedName, sharedWith };
  });
}
