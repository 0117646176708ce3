import { Injectable } from '@nestjs/common'
import { CreateCatDto } from './cats.dto'

export interface Cat { id: number, name: string, age: number }

@Injectable()
export class CatsService {
  private readonly cats: Cat[] = [{ id: 1, name: 'Tom', age: 3 }, { id: 2, name: 'Felix', age: 5 }]

  list (limit?: number): Cat[] {
    return limit === undefined ? this.cats : this.cats.slice(0, limit)
  }

  find (id: number): Cat | undefined {
    return this.cats.find((cat) => cat.id === id)
  }

  create (dto: CreateCatDto): Cat {
    const cat = { id: this.cats.length + 1, ...dto }
    this.cats.push(cat)
    return cat
  }
}
