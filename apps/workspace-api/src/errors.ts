import { createError } from '@platform/errors';

export const CredentialsMissingError = createError(
  'CREDENTIALS_MISSING',
  'API credentials are required: api_key and api_key_secret in the body, the api-key/api-key-secret headers, or Basic auth',
  401,
);
export const CredentialsInvalidError = createError(
  'CREDENTIALS_INVALID',
  'The API key or secret is not valid',
  401,
);
export const CredentialsExpiredError = createError(
  'CREDENTIALS_EXPIRED',
  'The API key has expired',
  401,
);
export const ForbiddenError = createError('FORBIDDEN', '%s', 403);

export const UserNotFoundError = createError('USER_NOT_FOUND', 'No user matches %s', 404);
export const GroupNotFoundError = createError('GROUP_NOT_FOUND', 'No group matches %s', 404);
export const ApiKeyNotFoundError = createError('API_KEY_NOT_FOUND', 'No API key matches %s', 404);
export const ApiKeyExpiryPastError = createError(
  'API_KEY_EXPIRY_PAST',
  'The expiry %s is already past: give a time in the future, or none for a key that does not expire',
  400,
);
export const UsernameTakenError = createError(
  'USERNAME_TAKEN',
  'The username "%s" is already taken',
  409,
);
export const UserAlreadyInGroupError = createError(
  'USER_ALREADY_IN_GROUP',
  'The user is already a member of this group',
  409,
);
export const UserNotInGroupError = createError(
  'USER_NOT_IN_GROUP',
  'The user is not a member of this group',
  404,
);
export const SystemMembershipError = createError(
  'SYSTEM_MEMBERSHIP',
  'Every user is a member of All Users; that membership cannot be removed',
  409,
);
export const UserHasSessionsError = createError(
  'USER_HAS_SESSIONS',
  'The user has live sessions; pass "force": true to delete anyway',
  409,
);
export const PasswordRulesError = createError(
  'PASSWORD_RULES',
  'The password does not meet the password rules',
  400,
);
export const InvalidCursorError = createError(
  'INVALID_CURSOR',
  'The cursor is not valid for this query',
  400,
);

export const LoginFailedError = createError(
  'LOGIN_FAILED',
  'The username or password is incorrect',
  401,
);
export const PasswordChecksBusyError = createError(
  'PASSWORD_CHECKS_BUSY',
  'Too many sign-ins are being checked; try again in %s s',
  503,
);
export const UserLockedError = createError('USER_LOCKED', 'The account is locked', 403);
export const UserDisabledError = createError('USER_DISABLED', 'The account is disabled', 403);

export const GroupNameTakenError = createError(
  'GROUP_NAME_TAKEN',
  'The group name "%s" is already taken',
  409,
);
export const GroupHasMembersError = createError(
  'GROUP_HAS_MEMBERS',
  'The group has %s member(s); pass "force": true to delete it anyway',
  409,
);
export const SystemGroupError = createError('SYSTEM_GROUP', '%s', 409);
export const ImageNotFoundError = createError('IMAGE_NOT_FOUND', 'No workspace matches %s', 404);
export const ImageAlreadyInGroupError = createError(
  'IMAGE_ALREADY_IN_GROUP',
  'The workspace is already allowed for this group',
  409,
);
export const ImageNotInGroupError = createError(
  'IMAGE_NOT_IN_GROUP',
  "The workspace is not on this group's list",
  404,
);
export const ImageAlreadyInstalledError = createError(
  'IMAGE_ALREADY_INSTALLED',
  'The workspace "%s" of this registry is already installed',
  409,
);
export const ProfilePathInvalidError = createError(
  'PROFILE_PATH_INVALID',
  'The persistent profile path is not valid',
  400,
);

export const RegistryNotFoundError = createError(
  'REGISTRY_NOT_FOUND',
  'No registry matches %s',
  404,
);
export const RegistryAlreadyAddedError = createError(
  'REGISTRY_ALREADY_ADDED',
  'The registry %s has already been added',
  409,
);
export const RegistryUrlInvalidError = createError('REGISTRY_URL_INVALID', '%s', 400);
export const RegistryUnreachableError = createError(
  'REGISTRY_UNREACHABLE',
  'The registry could not be reached: %s',
  400,
);
export const RegistryTimeoutError = createError(
  'REGISTRY_TIMEOUT',
  'The registry did not answer within %s ms: %s',
  400,
);
export const RegistryVersionsMissingError = createError(
  'REGISTRY_VERSIONS_MISSING',
  'The registry has no versions.txt at %s',
  422,
);
export const RegistryVersionUnsupportedError = createError(
  'REGISTRY_VERSION_UNSUPPORTED',
  'The registry offers schema versions [%s]; supported are %s',
  422,
);
export const RegistryListMissingError = createError(
  'REGISTRY_LIST_MISSING',
  'The registry has no list at %s',
  422,
);
export const RegistryTooLargeError = createError(
  'REGISTRY_TOO_LARGE',
  '%s is larger than the %s-byte limit',
  422,
);
export const RegistryNotJsonError = createError('REGISTRY_NOT_JSON', '%s is not JSON', 422);
export const RegistryInvalidError = createError(
  'REGISTRY_INVALID',
  '%s is not a workspace registry list',
  422,
);
export const RegistryWorkspaceNotFoundError = createError(
  'REGISTRY_WORKSPACE_NOT_FOUND',
  'The registry lists no workspace named "%s"',
  404,
);
export const RegistryWorkspaceInvalidError = createError(
  'REGISTRY_WORKSPACE_INVALID',
  'The registry workspace "%s" cannot be installed: %s; fix the registry and refresh it',
  422,
);
export const WorkspaceIncompatibleError = createError(
  'WORKSPACE_INCOMPATIBLE',
  'The workspace "%s" does not list %s as compatible; pass "force": true to install it anyway',
  409,
);

export const ZoneNotFoundError = createError('ZONE_NOT_FOUND', 'No zone matches %s', 404);
export const ZoneNameTakenError = createError(
  'ZONE_NAME_TAKEN',
  'The zone name "%s" is already taken',
  409,
);
export const ZoneOnConsoleOriginError = createError('ZONE_ON_CONSOLE_ORIGIN', '%s', 400);
export const ZoneHasAgentsError = createError(
  'ZONE_HAS_AGENTS',
  'The zone still has agents; move or delete them first',
  409,
);
export const AgentNotFoundError = createError('AGENT_NOT_FOUND', 'No agent matches %s', 404);
export const AgentHostnameTakenError = createError(
  'AGENT_HOSTNAME_TAKEN',
  'An agent with hostname "%s" is already registered',
  409,
);
export const FileMappingNotFoundError = createError(
  'FILE_MAPPING_NOT_FOUND',
  'No file mapping matches %s',
  404,
);
export const FileMappingDestinationTakenError = createError(
  'FILE_MAPPING_DESTINATION_TAKEN',
  'The %s already has a file mapping to %s',
  409,
);

export const StagingConfigNotFoundError = createError(
  'STAGING_CONFIG_NOT_FOUND',
  'No staging config matches %s',
  404,
);
export const StagingConfigTakenError = createError(
  'STAGING_CONFIG_TAKEN',
  'The zone already has a staging config for this workspace; update it instead',
  409,
);
export const StagingNotPossibleError = createError('STAGING_NOT_POSSIBLE', '%s', 409);

export const WorkspaceNotAllowedError = createError('WORKSPACE_NOT_ALLOWED', '%s', 403);
export const NoAgentAvailableError = createError('NO_AGENT_AVAILABLE', '%s', 503);
/** More launches wait for their turn than LAUNCH_QUEUE_MAX, or one waited past LAUNCH_QUEUE_WAIT_SECONDS. */
export const LaunchQueueFullError = createError('LAUNCH_QUEUE_FULL', '%s', 503);
/** A queued launch destroyed before its turn: its wait is gone, nothing is placed. */
export const LaunchCancelledError = createError('LAUNCH_CANCELLED', '%s', 409);

export const SettingsFileUnreadableError = createError(
  'SETTINGS_FILE_UNREADABLE',
  'Cannot read the settings file %s: %s',
  400,
);
export const SettingsInvalidError = createError(
  'SETTINGS_INVALID',
  'The settings file %s has %s problem(s); nothing was changed',
  400,
);
export const KasmNotFoundError = createError('KASM_NOT_FOUND', 'No session matches %s', 404);
export const SessionLimitReachedError = createError('SESSION_LIMIT_REACHED', '%s', 409);
export const KasmNotRunningError = createError('KASM_NOT_RUNNING', '%s', 409);
/** resume_kasm cannot bring the session back now (its agent lacks room, is offline, or it is passing). */
export const KasmCannotResumeError = createError('KASM_CANNOT_RESUME', '%s', 409);
/** get_kasm_screenshot on a session whose workspace has no display the service can read. */
export const KasmNoDisplayError = createError('KASM_NO_DISPLAY', '%s', 409);
export const EngineFailedError = createError('ENGINE_FAILED', '%s', 502);
export const AgentHasSessionsError = createError(
  'AGENT_HAS_SESSIONS',
  'The agent runs live sessions; destroy them first',
  409,
);
export const ProxyCredentialsMissingError = createError('SESSION_CREDENTIALS_MISSING', '%s', 401);
export const RequestHostInvalidError = createError(
  'REQUEST_HOST_INVALID',
  'The request’s host (Host, or X-Forwarded-Host from a trusted proxy) is not a host name or IP address with an optional port',
  400,
);
export const ProxyAccessDeniedError = createError('SESSION_ACCESS_DENIED', '%s', 403);
export const ProxyOriginRejectedError = createError(
  'SESSION_ORIGIN_REJECTED',
  'A WebSocket to a session must be opened by a page of the host it connects to (Origin)',
  403,
);
export const OriginServesSessionsError = createError(
  'ORIGIN_SERVES_SESSIONS',
  'This address serves sessions only (/kasm/…); the console and the API are at their own address',
  404,
);
export const OriginServesConsoleError = createError(
  'ORIGIN_SERVES_CONSOLE',
  'Sessions are not served at the console’s address: open the kasm_url, which points at the sessions address (SESSION_PORT)',
  404,
);
export const ProxyServiceWorkerRefusedError = createError(
  'SESSION_SERVICE_WORKER_REFUSED',
  'A session’s page may not install a service worker',
  403,
);
export const ProxyPathInvalidError = createError(
  'SESSION_PATH_INVALID',
  'The path after /kasm/<kasm_id> must be a path on the session’s container',
  400,
);
export const ProxySocketLimitError = createError(
  'SESSION_WEBSOCKETS_EXCEEDED',
  'This browser has as many WebSockets open to the session as its admission allows (SESSION_GRANT_MAX_WEBSOCKETS): close one first',
  429,
);
/** The container's address answered with another certificate than the session's pin. */
export const ProxyCertificateRefusedError = createError(
  'SESSION_CERTIFICATE_MISMATCH',
  'The session’s container did not present its certificate: the connection was refused',
  502,
);
export const LoginLinkInvalidError = createError(
  'LOGIN_LINK_INVALID',
  'This sign-in link is not valid any more: it was used, it expired or it was revoked',
  401,
);
export const CsrfRejectedError = createError(
  'CSRF_REJECTED',
  'The form was not sent from this site or has expired; reload the page and try again',
  403,
);
export const OwnRegistryFileNotFoundError = createError(
  'REGISTRY_FILE_NOT_FOUND',
  'The registry has no file %s',
  404,
);

// Files in and out of a session's desktop (session-files/).
export const FileNameInvalidError = createError('FILE_NAME_INVALID', '%s', 400);
export const FileTransferRefusedError = createError('FILE_TRANSFER_REFUSED', '%s', 403);
export const FileTooLargeError = createError('FILE_TOO_LARGE', '%s', 413);
export const FileNotFoundError = createError('FILE_NOT_FOUND', '%s', 404);
export const FileNotRegularError = createError('FILE_NOT_REGULAR', '%s', 422);
export const FolderUnsafeError = createError('FILE_FOLDER_UNSAFE', '%s', 409);
export const UploadOffsetMismatchError = createError('UPLOAD_OFFSET_MISMATCH', '%s', 409);
export const UploadBusyError = createError('UPLOAD_BUSY', '%s', 409);

// Sign-in with the organisation's accounts (sso/). A refusal's code is its reason in the audit trail.
export const SsoProviderNotFoundError = createError(
  'SSO_PROVIDER_NOT_FOUND',
  'No sign-in provider is named "%s"',
  404,
);
export const SsoProviderExistsError = createError(
  'SSO_PROVIDER_EXISTS',
  'A sign-in provider named "%s" exists already',
  409,
);
export const SsoRefusedError = createError('SSO_REFUSED', 'Sign-in refused: %s', 401);
export const SsoRequiredError = createError(
  'SSO_REQUIRED',
  "Sign in with your organisation's account",
  403,
);

// A session's sound in the browser (session-audio/).
export const SessionAudioRefusedError = createError(
  'SESSION_AUDIO_REFUSED',
  'This workspace does not play its sound in the browser (allow_kasm_audio is off)',
  403,
);
export const SessionAudioUnavailableError = createError('SESSION_AUDIO_UNAVAILABLE', '%s', 409);
export const ShareNotFoundError = createError(
  'SHARE_NOT_FOUND',
  'No share link or share_id matches %s',
  404,
);
export const ShareRefusedError = createError('SHARE_REFUSED', '%s', 403);
export const ParticipantNotFoundError = createError(
  'PARTICIPANT_NOT_FOUND',
  'No joiner of the session matches %s',
  404,
);
/** The session's policy records it and refuses it unrecorded, and its recording cannot be made. */
export const RecordingUnavailableError = createError(
  'SESSION_RECORDING_UNAVAILABLE',
  'The session must be recorded and its recording cannot be made now: %s',
  503,
);
export const RecordingNotFoundError = createError(
  'RECORDING_NOT_FOUND',
  'No recording matches %s',
  404,
);
/** A recording moved to the S3-compatible store that cannot be read from it now (docs/recording.md#storage). */
export const RecordingStoreUnavailableError = createError(
  'RECORDING_STORE_UNAVAILABLE',
  'The recordings store cannot be reached now: %s',
  503,
);
