/** Permissions an API key can carry. A session token (JWT) acts for its user with all of them. */
export const SCOPES = ['jobs:read', 'jobs:write'] as const;
export type Scope = (typeof SCOPES)[number];
