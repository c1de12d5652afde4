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
  @ApiProperty() access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ description: 'Seconds until the token expires.' }) expires_in!: number;
}

export class SignupResponse extends TokenResponse {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty() email!: string;
}
