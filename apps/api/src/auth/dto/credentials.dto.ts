import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { MIN_PASSWORD_LENGTH } from '@docconv/accounts';

export class CredentialsDto {
  @ApiProperty({ example: 'ada@example.com' })
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(254)
  email!: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024, example: 'correct horse battery staple' })
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH, { message: `must have at least ${MIN_PASSWORD_LENGTH} characters` })
  @MaxLength(1024)
  password!: string;
}

export class TokenResponse {
  @ApiProperty({ description: 'Short-lived session token (JWT), sent as `Authorization: Bearer <JWT>`.' })
  access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ description: 'Seconds until the access token expires.' }) expires_in!: number;
  @ApiProperty({
    description:
      'Renews the session once with POST /api/v1/auth/refresh, which answers a new one; using an older one again ends the session.',
    example:
      'dcr_0b7c2f9e-2a6d-4c1b-9a3e-5f8d7c6b4a21.0.9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  refresh_token!: string;
  @ApiProperty({ description: 'Seconds until the session ends, renewed or not; then the person logs in again.' })
  refresh_expires_in!: number;
  @ApiProperty({ format: 'uuid', description: 'The session, as GET /api/v1/auth/sessions lists it.' })
  session_id!: string;
}

export class SignupResponse extends TokenResponse {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
}

export class RefreshDto {
  @ApiProperty({ description: 'The refresh_token of the last log-in or refresh.' })
  @IsString()
  @MaxLength(200)
  refresh_token!: string;
}

export class ChangePasswordDto {
  @ApiProperty({ maxLength: 1024 })
  @IsString()
  @MaxLength(1024)
  current_password!: string;

  @ApiProperty({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1024 })
  @IsString()
  @MinLength(MIN_PASSWORD_LENGTH, { message: `must have at least ${MIN_PASSWORD_LENGTH} characters` })
  @MaxLength(1024)
  new_password!: string;
}
