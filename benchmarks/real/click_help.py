"""click: a group's --help."""

import click


@click.group()
@click.option('--verbose', '-v', is_flag=True, help='Say more.')
def cli(verbose):
    """A tool with two commands."""


@cli.command()
@click.argument('name')
@click.option('--count', default=1, type=int, help='How many times.')
def greet(name, count):
    """Greet NAME."""


@cli.command()
@click.option('--format', type=click.Choice(['json', 'text']), default='text')
def show(format):
    """Show the state."""


cli(['--help'], prog_name='tool')
