import { CopyField } from '../../../ui/copy-field.js';
import { OneTimeSecret } from '../../../ui/secret.js';

/** A connection's bearer token, which the server answers once (on create and on rotation), with its URL. */
export function ScimToken(props: {
  readonly token: string;
  readonly baseUrl: string;
  readonly onDone: () => void;
}) {
  return (
    <>
      <div className="dialog-body">
        <CopyField
          label="SCIM base URL"
          value={props.baseUrl}
          what="the URL"
          description="The tenant URL the identity provider sends its SCIM requests to."
        />
      </div>
      <OneTimeSecret
        label="Bearer token"
        value={props.token}
        onDone={props.onDone}
        notice="Copy the token now: this is the only time it is shown. Svc keeps only its hash; if it is lost, rotate it to get a new one."
        description="The identity provider sends it as Authorization: Bearer on every SCIM request."
      />
    </>
  );
}
