import { zodResolver } from "@hookform/resolvers/zod";
import { LoaderCircle } from "lucide-react";
import { useRef } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "react-toastify/unstyled";
import { type SignInInput, signInInputSchema } from "#shared/users/user.schemas.ts";
import { Button } from "../../../components/ui/button.tsx";
import { TextField } from "../../../components/ui/field.tsx";
import { PasswordField } from "../../../components/ui/password-input.tsx";
import { isApiError } from "../../../lib/api-client.ts";
import { pathAfterSignIn, returnParam } from "../../../lib/return-path.ts";
import { useSignIn } from "../auth.api.ts";
import { SocialSignIn } from "./social-sign-in.tsx";

export function SignInForm() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const next = searchParams.get(returnParam);
  const signIn = useSignIn();
  const submitRef = useRef<HTMLButtonElement>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput>({
    resolver: zodResolver(signInInputSchema),
    defaultValues: { email: "", password: "" },
  });

  const handleSignIn = handleSubmit(async (input) => {
    try {
      const actor = await signIn.mutateAsync(input);
      navigate(pathAfterSignIn(actor.role, next), { replace: true });
    } catch (error) {
      // Spec §8: a wrong e-mail or password reads "Wrong user credentials"; inactive or rate-limited say why.
      toast.error(isApiError(error, 401) ? "Wrong user credentials" : messageOf(error));
      // On a phone the button may sit where the toast appears: once the form has re-rendered, lift it
      // above (html's scroll-padding-bottom keeps the toast's height free).
      requestAnimationFrame(() => submitRef.current?.scrollIntoView({ block: "nearest" }));
    }
  });

  return (
    <>
      <form noValidate onSubmit={handleSignIn} className="flex flex-col gap-5">
        <TextField
          label="Email"
          error={errors.email?.message}
          type="email"
          autoComplete="email"
          placeholder="you@company.com"
          {...register("email")}
        />
        <PasswordField
          label="Password"
          error={errors.password?.message}
          autoComplete="current-password"
          {...register("password")}
        />
        <div className="-mt-2 flex justify-end">
          <Link to="/forgot-password" className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
            Forgot password?
          </Link>
        </div>
        <Button ref={submitRef} type="submit" size="lg" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
          Sign In
        </Button>
      </form>
      <SocialSignIn returnTo={next} />
      <p className="mt-6 text-center text-sm text-slate-500">
        Don&apos;t have an account?{" "}
        <Link to="/sign-up" className="font-medium text-indigo-600 hover:text-indigo-500">
          Sign up
        </Link>
      </p>
    </>
  );
}

const messageOf = (error: unknown) =>
  error instanceof Error && error.message ? error.message : "Something went wrong. Please try again.";
