import { isUniqueViolation, type Database } from '../db';

/**
 * Every query of `sso_saml_assertion`: the assertion IDs a SAML provider has vouched with, each
 * kept until its assertion expires (after that the assertion is refused as expired anyway).
 */
export function createSamlAssertionsRepository({ prisma }: Database) {
  return {
    /**
     * Records an assertion as spent; false when its ID was seen before (a replay). The primary
     * key decides, so two copies posted at once cannot both pass.
     */
    async spend(providerId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
      await prisma.ssoSamlAssertion.deleteMany({ where: { expiresAt: { lt: new Date() } } });
      try {
        await prisma.ssoSamlAssertion.create({ data: { providerId, assertionId, expiresAt } });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
  };
}
export type SamlAssertionsRepository = ReturnType<typeof createSamlAssertionsRepository>;
