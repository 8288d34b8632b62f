/** One upstream tool that wants a composed name. */
export interface NameClaim<Owner> {
  owner: Owner;
  /** The composed name it would get alone (`composedToolName`). */
  name: string;
}

/** A claim with the name it gets, and, when that is not the name it wanted, whose claim took it. */
export type AssignedName<Owner, Claim extends NameClaim<Owner>> = Claim & {
  exposedName: string;
  /** The earlier claim that holds `name`; undefined when the claim got its own name. */
  collidesWith: Claim | undefined;
};

const maxNameLength = 64;

/**
 * Gives every claim a distinct name, in the order the claims come (config
 * order, then each server's own tool order), so the outcome is the same on
 * every start. The first claim of a name keeps it; a later one gets the name
 * with the separator and the first free number from 2 on (`a_b_c_2`), cut
 * so it stays within 64 characters. Names that a claim wants as its own
 * are never given to another as a numbered one, so a server's tool called
 * `x_2` keeps its name whatever else collides on `x`.
 *
 * @example
 * assignToolNames([{ owner: 'a', name: 'a_b_c' }, { owner: 'a_b', name: 'a_b_c' }], '_');
 * // a keeps a_b_c; a_b's tool becomes a_b_c_2
 */
export function assignToolNames<Owner, Claim extends NameClaim<Owner>>(
  claims: readonly Claim[],
  separator: string,
): AssignedName<Owner, Claim>[] {
  const holders = new Map<string, Claim>();
  for (const claim of claims) if (!holders.has(claim.name)) holders.set(claim.name, claim);
  const taken = new Set(holders.keys());
  return claims.map((claim) => {
    const holder = holders.get(claim.name);
    if (holder === claim) return { ...claim, exposedName: claim.name, collidesWith: undefined };
    let exposedName = claim.name;
    for (let number = 2; taken.has(exposedName); number++) {
      const suffix = `${separator}${number}`;
      exposedName = `${claim.name.slice(0, maxNameLength - suffix.length)}${suffix}`;
    }
    taken.add(exposedName);
    return { ...claim, exposedName, collidesWith: holder };
  });
}
