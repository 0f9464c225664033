// Signing in (SRP's arithmetic and the new-password challenge) is fetched only when someone signs in: a signed-in
// person's first screen does not carry it.
export { confirmSignIn, signIn } from "aws-amplify/auth";
