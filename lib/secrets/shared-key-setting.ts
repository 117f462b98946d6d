// The Setting row that holds the id of the key the credentials are sealed with (lib/instances/shared-key.ts);
// plain module: `wirespeed rotate-secret` (lib/secrets/rotate.ts) writes it too.
export const SHARED_KEY_SETTING = "secretKeyId";
