import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator'
import { Type } from 'class-transformer'

export class CreateCatDto {
  @IsString()
  name: string

  @IsInt()
  @Min(0)
  @Max(30)
  age: number
}

export class ListCatsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  limit?: number
}
