use std::io::{self, BufRead};

fn main() {
    let query = std::env::args().nth(1).unwrap_or_else(|| "SELECT *".to_string());
    let Some(query) = tally_sql::parse(&query) else {
        eprintln!("tally: cannot parse the query; try \"SELECT *\"");
        std::process::exit(2);
    };
    let lines: Vec<String> = io::stdin().lock().lines().map_while(Result::ok).collect();
    let stations = tally_core::tally(lines.iter().map(String::as_str));
    for (name, stats) in &stations {
        match &query {
            tally_sql::Query::Summary => println!("{}", tally_sql::render(name, stats)),
            tally_sql::Query::Station(wanted) if wanted == name => println!("{}", tally_sql::render(name, stats)),
            tally_sql::Query::Station(_) => {}
        }
    }
}
