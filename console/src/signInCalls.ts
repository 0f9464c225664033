// Signing in (SRP's arithmetic and the new-password challenge) and signing up (self sign-up and its email code)
// are fetched only when someone signs in or up: a signed-in person's first screen does not carry them. (One module:
// the sign-up calls share most of their code with the sign-in ones.)
export { confirmSignIn, confirmSignUp, resendSignUpCode, signIn, signUp } from "aws-amplify/auth";
