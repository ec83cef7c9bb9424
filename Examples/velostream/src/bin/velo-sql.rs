fn main() {
    println!("velo-sql {}", env!("CARGO_PKG_VERSION"));
}
