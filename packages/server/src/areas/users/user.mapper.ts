import type { UserRow } from '../../auth/users.repository.js';
import type { ApiUser } from '../../schemas.js';
import type { Urls } from '../../urls.js';

export function toApiUser(user: Pick<UserRow, 'id' | 'email' | 'displayName' | 'photoUrl'>, urls: Urls): ApiUser {
  return {
    object: 'user',
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: urls.api(`/v1/users/${user.id}`) },
  };
}
